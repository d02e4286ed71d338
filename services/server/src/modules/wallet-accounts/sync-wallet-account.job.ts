import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { eq, sql } from 'drizzle-orm';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { isTransientFailure } from '../../infra/transient-failure.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { queryRows } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import { REALTIME_PUBLISHER, type RealtimePublisher } from '../../infra/realtime/realtime.publisher.js';
import { ProviderRateLimiter } from '../../infra/wallet/provider-rate-limiter.js';
import { TokenCipher } from '../../infra/wallet/token-cipher.js';
import {
  type SkippedPass,
  WALLET_PROVIDER,
  type WalletPass,
  type WalletPassPage,
  type WalletProvider,
  WalletRateLimitedError,
  WalletTokenError,
  WalletUnavailableError,
} from '../../infra/wallet/wallet-provider.port.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { fold } from '../../shared/event-sourcing/decider.js';
import { walletAccountDecider } from './wallet-account.decider.js';
import { type PassDetails, type WalletAccountEvent, walletAccountStream } from './wallet-account.events.js';
import { walletCredentials, walletSyncState } from './wallet-accounts.schema.js';

/** The repeating sync of an account, by its key. */
export const periodicSyncKey = (accountId: string) => `sync-periodic-${accountId}`;

export interface SyncWalletAccountData {
  accountId: string;
  /** Why it runs (linked, follow-up, periodic, a retry): for the log. */
  reason: string;
}

/** A sync holds its account this long at most (a worker that died mid-sync gives it up then). */
const LEASE_SECONDS = 120;
/** Passes of one wallet read at most (a sane bound on what a provider may answer). */
const MAX_PASSES = 5000;
/** Pages of one wallet read at most (a page holds up to 100 passes). */
const MAX_PAGES = 500;
/** How long a sync waits for the provider's Retry-After before it fails and is retried later with backoff. */
const RATE_LIMIT_WAIT_MS = 30_000;
/**
 * Failed tries in a row after which a sync of an account gives up and its account shows the error: the tries of one
 * sync job (5, see wallet-sync-schedule.reaction.ts), counted on the account so that it holds whatever the queue's
 * setting. A failure that is not the wallet service being down shows at once.
 */
export const SYNC_GIVE_UP_AFTER = 5;

/** What the account shows when its sync gave up (Accounts page), by cause; the cause itself is in the log. */
export const SYNC_FAILURE_MESSAGES = {
  unavailable: 'The wallet service could not be reached, so this account has not synced. It will be tried again.',
  tooMany: `This wallet holds more than ${MAX_PASSES} passes, which is more than an account can sync.`,
  failed: 'The last sync of this account could not be completed. It will be tried again.',
} as const;

/** The wallet lists more passes than a sync takes. */
class WalletTooLargeError extends Error {
  constructor() {
    super(`The wallet lists more than ${MAX_PASSES} passes`);
    this.name = 'WalletTooLargeError';
  }
}

/** Whether a failure is the wallet service (or the database) being out of reach for now: it is retried quietly. */
function isOutage(err: unknown): boolean {
  return (
    err instanceof WalletUnavailableError ||
    err instanceof WalletRateLimitedError ||
    (err instanceof Error && /rate limited/.test(err.message)) ||
    isTransientFailure(err)
  );
}

/** A pass as a ticket keeps it. */
export function passDetails(pass: WalletPass): PassDetails {
  return {
    passId: pass.id,
    barcode: pass.barcode,
    title: pass.title,
    subtitle: pass.subtitle,
    logo: pass.logoUrl,
    saveUrl: pass.saveUrl,
    venueName: pass.venueName,
    section: pass.section,
    row: pass.row,
    seat: pass.seat,
    nextGame: pass.nextGame?.title ?? null,
    nextGameDate: pass.nextGame?.date ?? null,
  };
}

/**
 * Syncs one wallet account: reads every pass the wallet shows now and records what changed (tickets discovered,
 * changed, gone) on the account's stream, where the decider compares them with what it knew — so a sync run twice (a
 * stalled job run again) records nothing twice. One sync per account at a time (a lease); the provider is called at
 * the shared pace, a 429 pauses every worker for its Retry-After; a refused token puts the account in error (the user
 * must sign in again) and is not retried; other failures are retried with exponential backoff. A sync that gives up —
 * SYNC_GIVE_UP_AFTER failed tries in a row, or at once for a failure that is not an outage — records why on the
 * account's stream (WalletAccountSyncFailed), which its Accounts card shows until a sync goes through. Passes the
 * wallet sent that cannot be used are left out, logged and recorded (WalletPassesSkipped); the others sync.
 */
@Injectable()
@QueueJob()
export class SyncWalletAccountJob implements Job<SyncWalletAccountData> {
  static readonly jobName = 'sync-wallet-account';
  readonly queue = QueueName.WalletSync;
  readonly name = SyncWalletAccountJob.jobName;
  readonly concurrency: number;
  private readonly logger = new Logger('WalletSync');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(WALLET_PROVIDER) private readonly provider: WalletProvider,
    @Inject(REALTIME_PUBLISHER) private readonly realtime: RealtimePublisher,
    private readonly limiter: ProviderRateLimiter,
    private readonly cipher: TokenCipher,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
  ) {
    this.concurrency = config.WALLET_SYNC_CONCURRENCY;
  }

  async run({ accountId }: SyncWalletAccountData): Promise<void> {
    const { events } = await this.store.readStream(walletAccountStream(accountId));
    const state = fold(
      walletAccountDecider,
      events.map((e) => ({ type: e.type, data: e.data }) as WalletAccountEvent),
    );
    if (!state.exists || state.deleted) {
      // A schedule that outlived its account (made again from the database while the deletion was under way): gone.
      await this.jobs.removeRepeatable(QueueName.WalletSync, periodicSyncKey(accountId)).catch(() => false);
      return;
    }
    if (state.inError) return;
    if (!(await this.takeLease(accountId))) return;
    const userId = state.userId!;
    const progress = (s: 'running' | 'done' | 'failed', fetched: number) => {
      this.realtime.publish([
        { to: { userId }, event: 'account.sync', payload: { account_id: accountId, state: s, fetched } },
      ]);
    };
    let error: string | null = null;
    let synced = false;
    try {
      const [credentials] = await this.database.db
        .select()
        .from(walletCredentials)
        .where(eq(walletCredentials.accountId, accountId));
      let token: string | null = null;
      try {
        token = credentials ? this.cipher.decrypt(credentials.sealedToken) : null;
      } catch {
        // Sealed with another key (WALLET_TOKEN_KEY changed): only a new sign-in gives a token again.
      }
      if (!token) {
        error = credentials ? 'The kept sign-in can no longer be read' : 'No sign-in is kept for this account';
        await this.authFailed(accountId, error);
        progress('failed', 0);
        return;
      }
      progress('running', 0);
      let read: { passes: WalletPass[]; skipped: SkippedPass[] };
      try {
        read = await this.readAll(token, (n) => progress('running', n));
      } catch (err) {
        if (!(err instanceof WalletTokenError)) throw err;
        error = err.message;
        await this.authFailed(accountId, err.message);
        progress('failed', 0);
        return;
      }
      if (read.skipped.length > 0) {
        const shown = read.skipped.slice(0, 5).map((s) => `${s.passId ?? '(no id)'}: ${s.reason}`);
        this.logger.warn(
          `account ${accountId}: left out ${read.skipped.length} of the passes the wallet sent, which cannot be ` +
            `used (${shown.join('; ')}${read.skipped.length > shown.length ? '; ...' : ''})`,
        );
      }
      await handleCommand(
        this.store,
        walletAccountDecider,
        walletAccountStream(accountId),
        {
          type: 'RecordSync',
          data: {
            accountId,
            passes: read.passes.map(passDetails),
            skipped: read.skipped,
            now: new Date().toISOString(),
          },
        },
        { metadata: { actorId: 'wallet-sync' }, commandId: randomUUID(), maxAttempts: 20 },
      );
      synced = true;
      progress('done', read.passes.length);
    } catch (err) {
      error = safeErrorMessage(err);
      progress('failed', 0);
      await this.failed(accountId, err).catch((recordErr: unknown) => {
        this.logger.warn(`account ${accountId}: the sync's failure was not recorded: ${safeErrorMessage(recordErr)}`);
      });
      throw err;
    } finally {
      await this.releaseLease(accountId, userId, error, synced);
    }
  }

  /**
   * Counts a failed try; when the sync gives up on it (an outage SYNC_GIVE_UP_AFTER times in a row, anything else at
   * once), the account's stream records why, in words for its owner.
   */
  private async failed(accountId: string, err: unknown): Promise<void> {
    const [row] = await queryRows<{ failed_attempts: number }>(
      this.database.db,
      sql`update wallet_sync_state set failed_attempts = failed_attempts + 1
          where account_id = ${accountId} returning failed_attempts`,
    );
    const outage = isOutage(err);
    const failures = Number(row?.failed_attempts ?? 1);
    this.logger.warn(
      `account ${accountId}: sync failed (${failures} in a row${outage ? ', the wallet service is out of reach' : ''}): ` +
        safeErrorMessage(err),
    );
    if (outage && failures < SYNC_GIVE_UP_AFTER) return;
    const reason =
      err instanceof WalletTooLargeError
        ? SYNC_FAILURE_MESSAGES.tooMany
        : outage
          ? SYNC_FAILURE_MESSAGES.unavailable
          : SYNC_FAILURE_MESSAGES.failed;
    await handleCommand(
      this.store,
      walletAccountDecider,
      walletAccountStream(accountId),
      { type: 'RecordSyncFailure', data: { accountId, reason, now: new Date().toISOString() } },
      { metadata: { actorId: 'wallet-sync' }, commandId: randomUUID() },
    );
  }

  private async readAll(
    token: string,
    onPage: (fetched: number) => void,
  ): Promise<{ passes: WalletPass[]; skipped: SkippedPass[] }> {
    const passes: WalletPass[] = [];
    const skipped: SkippedPass[] = [];
    let cursor: string | null = null;
    let waited = 0;
    let pages = 0;
    for (;;) {
      await this.limiter.take();
      let page: WalletPassPage;
      try {
        page = await this.provider.listPasses(token, cursor);
      } catch (err) {
        if (err instanceof WalletRateLimitedError && waited + err.retryAfterMs <= RATE_LIMIT_WAIT_MS) {
          // Every worker waits out the provider's Retry-After, then this same page is asked again.
          await this.limiter.pause(err.retryAfterMs);
          await new Promise((r) => setTimeout(r, err.retryAfterMs));
          waited += err.retryAfterMs;
          continue;
        }
        throw err;
      }
      passes.push(...page.passes);
      skipped.push(...page.skipped);
      onPage(passes.length);
      if (passes.length + skipped.length > MAX_PASSES) throw new WalletTooLargeError();
      if (!page.nextCursor) break;
      // A provider answering the cursor it was given (or empty pages without end) would keep the sync reading.
      if (page.nextCursor === cursor || ++pages > MAX_PAGES) {
        throw new WalletUnavailableError('pages that do not come to an end');
      }
      cursor = page.nextCursor;
    }
    return { passes, skipped };
  }

  private async authFailed(accountId: string, reason: string) {
    this.logger.warn(`account ${accountId} needs a new sign-in: ${reason}`);
    await handleCommand(
      this.store,
      walletAccountDecider,
      walletAccountStream(accountId),
      { type: 'RecordAuthFailure', data: { accountId, reason, now: new Date().toISOString() } },
      { metadata: { actorId: 'wallet-sync' }, commandId: randomUUID() },
    );
  }

  /** Takes the account's sync lease; false when another sync holds it. */
  private async takeLease(accountId: string): Promise<boolean> {
    const rows = await queryRows<{ account_id: string }>(
      this.database.db,
      sql`insert into wallet_sync_state (account_id, running_until)
          values (${accountId}, now() + make_interval(secs => ${LEASE_SECONDS}))
          on conflict (account_id) do update set running_until = excluded.running_until
          where wallet_sync_state.running_until is null or wallet_sync_state.running_until < now()
          returning account_id`,
    );
    return rows.length > 0;
  }

  private async releaseLease(accountId: string, userId: string, error: string | null, synced = false) {
    await this.database.db
      .update(walletSyncState)
      .set({
        runningUntil: null,
        lastSyncError: error ? error.slice(0, 500) : null,
        ...(synced ? { lastSyncedAt: new Date(), failedAttempts: 0 } : {}),
      })
      .where(eq(walletSyncState.accountId, accountId));
    // The card's "last synced" moved (not an event: a sync that changes nothing writes none).
    if (synced) {
      this.realtime.publish([
        { to: { userId }, event: 'account.updated', payload: { account_id: accountId, user_id: userId } },
        { to: 'admins', event: 'account.updated', payload: { account_id: accountId, user_id: userId } },
      ]);
    }
  }
}
