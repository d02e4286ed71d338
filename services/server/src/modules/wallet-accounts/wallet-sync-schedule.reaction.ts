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
import { inTurns } from '../../shared/in-turns.js';
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
    // The schedules of the accounts linked or signed in again are made a few accounts at a time (each is a few
    // round trips to the queue; one after the other, a batch of links would feed the workers no faster than that),
    // an account's events in their order; a deletion waits for those before it, and is handled alone.
    let scheduling: Array<{ accountId: string; run: () => Promise<void> }> = [];
    const schedule = async () => {
      await scheduleInTurns(scheduling, SCHEDULES_AT_ONCE);
      scheduling = [];
    };
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as WalletAccountEvent;
      const tag = recorded.id.slice(0, 8);
      switch (event.type) {
        case 'WalletAccountLinked':
        case 'WalletAccountReauthenticated': {
          const { accountId } = event.data;
          const reason = event.type === 'WalletAccountLinked' ? 'linked' : 'signed in again';
          scheduling.push({ accountId, run: () => this.scheduleSyncs(accountId, reason, tag) });
          break;
        }
        case 'WalletAccountDeleted': {
          await schedule();
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
    await schedule();
  }

  /** An account linked or signed in again: a sync at once, its follow-ups, and its periodic schedule. */
  private async scheduleSyncs(accountId: string, reason: string, tag: string) {
    const sync = (why: string, jobId: string, delayMs = 0) =>
      this.queue.add(
        QueueName.WalletSync,
        SyncWalletAccountJob.jobName,
        { accountId, reason: why } satisfies SyncWalletAccountData,
        {
          ...SYNC_OPTIONS,
          jobId,
          ...(delayMs > 0 ? { delayMs } : {}),
        },
      );
    await sync(reason, `sync-${accountId}-${tag}`);
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
  }
}

/** Accounts whose syncs are scheduled at once (a few round trips each to the queue, within its command timeout). */
const SCHEDULES_AT_ONCE = 16;

/**
 * Runs the work of each account, `atOnce` at a time, in turns (`inTurns`), and an account's work in its order: never two
 * of it at once, a later one after the earlier one of its turn (the turns before it have settled already).
 */
export async function scheduleInTurns(
  work: ReadonlyArray<{ accountId: string; run: () => Promise<void> }>,
  atOnce: number,
) {
  const latest = new Map<string, Promise<void>>();
  await inTurns(work, atOnce, ({ accountId, run }) => {
    const next = (latest.get(accountId) ?? Promise.resolve()).then(run);
    latest.set(accountId, next);
    return next;
  });
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
