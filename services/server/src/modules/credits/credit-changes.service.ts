import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand, type HandleResult } from '../../shared/event-sourcing/aggregate-handler.js';
import { KeyedMutex } from '../../shared/keyed-mutex.js';
import { type CreditsCommand, creditsDecider, type CreditsState } from './credits.decider.js';
import { type CreditsEvent, creditStream } from './credits.events.js';

/**
 * Runs a command on a user's credit stream. The stream decides (the balance never goes below zero); within this
 * process the commands of one user take turns, so a burst of parallel requests does not spend its time retrying
 * against itself; across processes the expected revision settles it, with retries to spare.
 */
@Injectable()
export class CreditChanges {
  private readonly turns = new KeyedMutex();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  run(
    userId: string,
    command: CreditsCommand,
    meta: { actorId: string; ip?: string; bulk?: boolean; commandId: string },
  ): Promise<HandleResult<CreditsState, CreditsEvent>> {
    const stream = creditStream(userId);
    return this.turns.run(stream, () =>
      handleCommand(this.store, creditsDecider, stream, command, {
        metadata: { actorId: meta.actorId, ip: meta.ip, ...(meta.bulk ? { bulk: true } : {}) },
        commandId: meta.commandId,
        maxAttempts: 100,
      }),
    );
  }
}
