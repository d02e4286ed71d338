import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { QueueName } from '@seatlink/contracts';
import { eq } from 'drizzle-orm';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { type ExpectedSchedule, JobSchedules, type ScheduleSource } from '../../infra/queue/jobs.module.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import {
  EventSubscription,
  type Subscription,
  type SubscriptionContext,
} from '../../infra/subscriptions/subscription.js';
import { periodicSyncKey, SyncWalletAccountJob, type SyncWalletAccountData } from './sync-wallet-account.job.js';
import { WalletLinkCommandMessage } from './wallet-account.command.js';
import type { WalletAccountEvent } from './wallet-account.events.js';
import { walletCredentials, walletSyncState } from './wallet-accounts.schema.js';

const SYNC_OPTIONS = { attempts: 5, backoff: { type: 'exponential' as const, delayMs: 5000 } };

/** The periodic sync of an account: every `everyMs`, its first run somewhere in the first interval. */
function periodicSync(accountId: string, everyMs: number): ExpectedSchedule {
  return {
    queue: QueueName.WalletSync,
    name: SyncWalletAccountJob.jobName,
    key: periodicSyncKey(accountId),
    data: { accountId, reason: 'periodic' } satisfies SyncWalletAccountData,
    everyMs,
    spreadMs: everyMs,
    ...SYNC_OPTIONS,
  };
}

/**
 * Keeps an account's syncs scheduled. Linked or signed in again: a sync at once, then again across the time passes
 * take to arrive (WALLET_SYNC_FOLLOW_UPS_MS), then periodically (WALLET_SYNC_EVERY_MS, from a random point in the
 * first interval so accounts spread out). Deleted: the schedule stops, its kept sign-in and the link claim are
 * dropped. Jobs are added in this reaction's transaction: if adding fails, the event is handled again.
 */
@Injectable()
@EventSubscription()
export class WalletSyncScheduleReaction implements Subscription {
  readonly name = 'wallet-sync-schedule';
  readonly kind = 'reaction' as const;
  readonly handles = ['WalletAccountLinked', 'WalletAccountReauthenticated', 'WalletAccountDeleted'] as const;

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly commandBus: CommandBus,
  ) {}

  async apply(events: readonly RecordedEvent[], { tx, store }: SubscriptionContext) {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as WalletAccountEvent;
      const tag = recorded.id.slice(0, 8);
      switch (event.type) {
        case 'WalletAccountLinked':
        case 'WalletAccountReauthenticated': {
          const { accountId } = event.data;
          const sync = (reason: string, jobId: string, delayMs = 0) =>
            this.queue.add(
              QueueName.WalletSync,
              SyncWalletAccountJob.jobName,
              { accountId, reason } satisfies SyncWalletAccountData,
              {
                ...SYNC_OPTIONS,
                jobId,
                ...(delayMs > 0 ? { delayMs } : {}),
              },
            );
          await sync(event.type === 'WalletAccountLinked' ? 'linked' : 'signed in again', `sync-${accountId}-${tag}`);
          for (const [i, delayMs] of this.config.walletSyncFollowUpsMs.entries()) {
            await sync('follow-up', `sync-${accountId}-${tag}-f${i}`, delayMs);
          }
          const periodic = periodicSync(accountId, this.config.WALLET_SYNC_EVERY_MS);
          await this.queue.add(periodic.queue, periodic.name, periodic.data, {
            ...SYNC_OPTIONS,
            jobId: periodic.key,
            repeat: { everyMs: periodic.everyMs },
            delayMs: Math.floor(Math.random() * periodic.everyMs),
          });
          break;
        }
        case 'WalletAccountDeleted': {
          const { accountId, userId } = event.data;
          await this.queue.removeRepeatable(QueueName.WalletSync, periodicSyncKey(accountId));
          await tx.delete(walletCredentials).where(eq(walletCredentials.accountId, accountId));
          await tx.delete(walletSyncState).where(eq(walletSyncState.accountId, accountId));
          const linked = (await store.readStream(recorded.streamId)).events.find(
            (e) => e.type === 'WalletAccountLinked',
          );
          const email = (linked?.data as { email?: string } | undefined)?.email;
          if (email) {
            await this.commandBus.execute(
              new WalletLinkCommandMessage(
                { type: 'ReleaseLink', data: { userId, email, accountId } },
                { actorId: userId, commandId: `unlink:${recorded.id}` },
                store,
              ),
            );
          }
          break;
        }
        default:
          break;
      }
    }
  }
}

/**
 * The periodic sync every linked account must have, from the database (an account keeps its sign-in until it is
 * deleted): the job runner makes again the ones a queue that lost its data no longer has.
 */
@Injectable()
@JobSchedules()
export class WalletSyncSchedules implements ScheduleSource {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async expectedSchedules(): Promise<ExpectedSchedule[]> {
    const accounts = await this.database.db.select({ accountId: walletCredentials.accountId }).from(walletCredentials);
    return accounts.map(({ accountId }) => periodicSync(accountId, this.config.WALLET_SYNC_EVERY_MS));
  }
}
