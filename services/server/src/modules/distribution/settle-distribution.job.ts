import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { QueueName } from '@seatlink/contracts';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import type { CreditsEvent } from '../credits/credits.events.js';
import { creditStream } from '../credits/credits.events.js';
import { RefundCreditsCommand } from '../credits/refund-credits.command.js';
import { ticketDistributionStream } from './distribution.events.js';

export interface SettleDistributionData {
  userId: string;
  commandId: string;
  cost: number;
  links: Array<{ ticketId: string; distributionId: string }>;
}

/**
 * After a distribution request: every link its debit paid for was made, or its credits come back. The request gives
 * back at once what it could not make; this catches what a crash (or a refund that failed) left behind. Idempotent:
 * it gives back only what no refund of the request has given back yet, under an id of its own.
 */
@Injectable()
@QueueJob()
export class SettleDistributionJob implements Job<SettleDistributionData> {
  static readonly jobName = 'settle-distribution';
  readonly queue = QueueName.Maintenance;
  readonly name = SettleDistributionJob.jobName;
  private readonly logger = new Logger('Distribution');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commandBus: CommandBus,
  ) {}

  async run({ userId, commandId, cost, links }: SettleDistributionData) {
    const credits = (await this.store.readStream(creditStream(userId))).events.map(
      (e) => ({ type: e.type, data: e.data }) as CreditsEvent,
    );
    const debited = new Set<string>();
    const refunded = new Set<string>();
    for (const event of credits) {
      if (event.type === 'CreditsDebited' && event.data.reference === commandId) {
        event.data.distributionIds.forEach((id) => debited.add(id));
      } else if (event.type === 'CreditsRefunded' && event.data.reference === commandId) {
        event.data.distributionIds.forEach((id) => refunded.add(id));
      }
    }
    const missing: string[] = [];
    for (const { ticketId, distributionId } of links) {
      if (!debited.has(distributionId) || refunded.has(distributionId)) continue;
      const { events } = await this.store.readStream(ticketDistributionStream(ticketId));
      const made = events.some(
        (e) =>
          e.type === 'TicketDistributed' && (e.data as { distributionId: string }).distributionId === distributionId,
      );
      if (!made) missing.push(distributionId);
    }
    if (missing.length === 0) return;
    await this.commandBus.execute(
      new RefundCreditsCommand({
        userId,
        amount: missing.length * cost,
        reference: commandId,
        distributionIds: missing,
        commandId: `settle-refund:${commandId}`,
      }),
    );
    this.logger.warn(`request ${commandId}: gave back ${missing.length * cost} credits for links not made`);
  }
}
