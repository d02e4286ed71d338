import { Inject, Injectable } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import { DistributionSettlements, type PaidLink, unfinished } from './distribution-settlements.service.js';

/** How many rounds of due settlements one run takes at most (the next run takes the rest). */
const MAX_ROUNDS = 20;

/**
 * Settles the distribution requests that did not settle themselves (their process died, the database went away):
 * every link they paid for is made, or voided and paid back. What is due is kept in the database
 * (`distribution_settlements`), not in the queue, so a queue that loses its data loses nothing here.
 */
@Injectable()
@QueueJob()
export class SettleDistributionsJob implements Job {
  static readonly jobName = 'settle-distributions';
  readonly queue = QueueName.Maintenance;
  readonly name = SettleDistributionsJob.jobName;
  readonly every: { ms: number };

  constructor(
    private readonly settlements: DistributionSettlements,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // A few looks per settle delay: a row is settled at most about a quarter of the delay late.
    this.every = { ms: Math.min(15_000, Math.max(1000, Math.round(config.DISTRIBUTION_SETTLE_AFTER_MS / 4))) };
  }

  async run() {
    for (let round = 0; round < MAX_ROUNDS && (await this.settlements.settleDue()) > 0; round++);
  }
}

/** The data of a settle job queued by an earlier version, one per request. */
export interface SettleDistributionData {
  userId: string;
  commandId: string;
  cost: number;
  links: PaidLink[];
}

/**
 * A settle job of one request, as earlier versions queued them (60 s after each request): kept so the jobs still in
 * a queue when this version starts are run. New requests keep what is due in the database instead.
 */
@Injectable()
@QueueJob()
export class SettleDistributionJob implements Job<SettleDistributionData> {
  static readonly jobName = 'settle-distribution';
  readonly queue = QueueName.Maintenance;
  readonly name = SettleDistributionJob.jobName;

  constructor(private readonly settlements: DistributionSettlements) {}

  async run({ userId, commandId, links }: SettleDistributionData) {
    await this.settlements.settle(userId, commandId, unfinished(links), { actorId: userId });
  }
}
