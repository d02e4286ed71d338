import { Inject, Injectable } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import { handleCommand, type HandleOptions } from '../../shared/event-sourcing/aggregate-handler.js';
import { inviteDecider } from '../invites/invite.decider.js';
import { inviteStream } from '../invites/invite.events.js';
import { emailClaimDecider } from './user.decider.js';
import { emailClaimStream, userStream } from './user.events.js';

/** What a registration that failed half-way had claimed, to give back. */
export interface RegistrationClaims {
  userId: string;
  email: string;
  inviteCode?: string;
  at: string;
  /**
   * This attempt's own id. A retried registration (same Idempotency-Key, same user id) takes and gives back its
   * claims again: its steps must not be mistaken for the earlier attempt's, which a give-back may have cancelled.
   */
  attempt: string;
}

/** Gives back what a failed registration claimed: the e-mail address and the invite use. Idempotent. */
export async function releaseClaims(
  store: EventStore,
  claims: RegistrationClaims,
  what: { email: boolean; invite: boolean },
) {
  const options = (step: string): HandleOptions => ({
    metadata: { actorId: claims.userId },
    commandId: `${step}:${claims.userId}:${claims.attempt}`,
    maxAttempts: 50,
  });
  // The last step may have been written even though its answer was lost: a registered user keeps what it claimed.
  const { events } = await store.readStream(userStream(claims.userId));
  if (events.some((e) => e.type === 'UserRegistered')) return;
  if (what.email) {
    await handleCommand(
      store,
      emailClaimDecider,
      emailClaimStream(claims.email),
      { type: 'ReleaseEmail', data: { email: claims.email, userId: claims.userId } },
      options('release-claim'),
    );
  }
  if (what.invite && claims.inviteCode) {
    await handleCommand(
      store,
      inviteDecider,
      inviteStream(claims.inviteCode),
      { type: 'ReleaseInviteUse', data: { code: claims.inviteCode, userId: claims.userId, now: claims.at } },
      options('invite-release'),
    );
  }
}

/** Retries giving back a failed registration's claims until it succeeds. */
@Injectable()
@QueueJob()
export class ReleaseRegistrationClaimsJob implements Job<
  RegistrationClaims & { taken: { invite: boolean; email: boolean } }
> {
  static readonly jobName = 'release-registration-claims';
  readonly queue = QueueName.Identity;
  readonly name = ReleaseRegistrationClaimsJob.jobName;

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async run(data: RegistrationClaims & { taken: { invite: boolean; email: boolean } }) {
    await releaseClaims(this.store, data, data.taken);
  }
}
