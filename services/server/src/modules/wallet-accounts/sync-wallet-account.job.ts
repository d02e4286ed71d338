import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { QueueName } from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import { JOB_QUEUE, type JobQueue, type QueuedJob } from '../../infra/queue/queue.port.js';
import { REALTIME_PUBLISHER, type RealtimePublisher } from '../../infra/realtime/realtime.publisher.js';
import type { LiveUpdate } from '../../infra/subscriptions/subscription.js';
import { ProviderRateLimiter } from '../../infra/wallet/provider-rate-limiter.js';
import { TokenCipher } from '../../infra/wallet/token-cipher.js';
import {
  type SkippedPass,
  WALLET_PROVIDER,
  type WalletPass,
  type WalletProvider,
  WalletTokenError,
} from '../../infra/wallet/wallet-provider.port.js';
import type { KnownStream } from '../../shared/event-sourcing/aggregate-handler.js';
import { fold } from '../../shared/event-sourcing/decider.js';
import { WalletAccountCommandMessage } from './wallet-account.command.js';
import { type WalletAccountCommand, walletAccountDecider, type WalletAccountState } from './wallet-account.decider.js';
import { type WalletAccountEvent, walletAccountStream } from './wallet-account.events.js';
import { passDetails, readWallet } from './wallet-pass-reader.js';
import {
  countFailure,
  givingUpReason,
  HeldLease,
  isOutage,
  LEASE_MS,
  leaseLeftMs,
  releaseLease,
  SyncLeaseLostError,
  takeLease,
} from './wallet-sync-state.js';
import { clock } from '../../shared/clock.js';

/**
 * Events of a sync appended at most per command: a wallet of 5,000 passes (MAX_PASSES) is recorded in 20 appends, none
 * of which holds the database for long.
 */
export const SYNC_EVENTS_PER_APPEND = 250;

/**
 * How soon a sync whose worker died (killed mid-sync) runs again on another worker: the queue finds the job stalled
 * within about 1.5 times this (ProcessOptions.lostAfterMs), and the sync there waits out what is left of the dead one's
 * lease (LEASE_MS) — a new sync starts within 30 s of the death.
 */
export const SYNC_LOST_AFTER_MS = 10_000;

/** The repeating sync of an account, by its key. */
export const periodicSyncKey = (accountId: string) => `sync-periodic-${accountId}`;

export interface SyncWalletAccountData {
  accountId: string;
  /** Why it runs (linked, follow-up, periodic, a retry): for the log. */
  reason: string;
}

/**
 * Syncs one wallet account: reads every pass the wallet shows now and records what changed (tickets discovered,
 * changed, gone) on the account's stream, in bounded parts, where the decider compares them with what it knew — so a
 * sync run twice (a stalled job run again, one stopped half-way) records nothing twice. One sync per account at a time
 * (a lease, renewed while the sync runs); a sync whose worker died is run again by another worker within 30 s (the
 * queue finds the job stalled, the dead sync's lease runs out). The provider is called at the shared pace, a 429
 * pauses every worker for its Retry-After; a refused token puts the account in error (the user must sign in again)
 * and is not retried; other failures are retried with exponential backoff. A sync that gives up —
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
  readonly lostAfterMs = SYNC_LOST_AFTER_MS;
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
    private readonly commandBus: CommandBus,
  ) {
    this.concurrency = config.WALLET_SYNC_CONCURRENCY;
  }

  async run({ accountId }: SyncWalletAccountData, job?: QueuedJob<SyncWalletAccountData>): Promise<void> {
    const { revision, events } = await this.store.readStream(walletAccountStream(accountId));
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
    let taken = await takeLease(this.database, accountId);
    if (job?.resumed) {
      this.logger.log(`account ${accountId}: the worker that ran this sync stopped mid-sync; it runs again here`);
      taken ??= await this.takeOverFromDeadSync(accountId);
    }
    // Another sync of the account runs: this one is not needed.
    if (!taken) return;
    /** The lease as this sync holds it, renewed while it runs. */
    const held = new HeldLease(this.database, accountId, taken.lease, {
      onTimerFailure: (err) => {
        // Lost: the next part says so and stops. Anything else: the next renewal tries again.
        if (!(err instanceof SyncLeaseLostError)) {
          this.logger.warn(`account ${accountId}: the sync's lease was not renewed: ${safeErrorMessage(err)}`);
        }
      },
    });
    const userId = state.userId!;
    const progressUpdate = (s: 'running' | 'done' | 'failed', fetched: number): LiveUpdate => ({
      to: { userId },
      event: 'account.sync',
      payload: { account_id: accountId, state: s, fetched },
    });
    const progress = (s: 'running' | 'done' | 'failed', fetched: number) => {
      this.realtime.publish([progressUpdate(s, fetched)]);
    };
    let error: string | null = null;
    let synced = false;
    let fetched = 0;
    try {
      const token = this.keptToken(taken.sealedToken);
      if (typeof token !== 'string') {
        error = token.error;
        await this.authFailed(accountId, error);
        progress('failed', 0);
        return;
      }
      progress('running', 0);
      let read: { passes: WalletPass[]; skipped: SkippedPass[] };
      try {
        read = await readWallet(this.provider, this.limiter, token, (n) => progress('running', n));
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
      await this.recordInParts(
        {
          accountId,
          passes: read.passes.map(passDetails),
          skipped: read.skipped,
          now: clock.now().toISOString(),
        },
        { revision, events, state },
        held,
      );
      synced = true;
      fetched = read.passes.length;
    } catch (err) {
      if (err instanceof SyncLeaseLostError) {
        // Not a failure of the account: the sync that took it over records what the wallet holds (its read is newer).
        this.logger.warn(err.message);
        return;
      }
      error = safeErrorMessage(err);
      progress('failed', 0);
      await this.failed(accountId, err).catch((recordErr: unknown) => {
        this.logger.warn(`account ${accountId}: the sync's failure was not recorded: ${safeErrorMessage(recordErr)}`);
      });
      throw err;
    } finally {
      let released = false;
      try {
        await releaseLease(this.database, accountId, await held.stop(), error, synced);
        released = true;
      } finally {
        // A sync that went through: its end, and, once its lease is given back, the card's "last synced" that moved
        // (not an event: a sync that changes nothing writes none), in one publish.
        if (synced) {
          const payload = { account_id: accountId, user_id: userId };
          const updates: LiveUpdate[] = [progressUpdate('done', fetched)];
          if (released) {
            updates.push(
              { to: { userId }, event: 'account.updated', payload },
              { to: 'admins', event: 'account.updated', payload },
            );
          }
          this.realtime.publish(updates);
        }
      }
    }
  }

  /**
   * This job's earlier run died mid-sync (its worker killed) and the queue runs it again: the dead run's lease may not
   * have run out yet. It is waited out (at most LEASE_MS) and taken once: a lease renewed meanwhile is a live sync's
   * (a run the queue only thought dead), which is left to finish.
   */
  private async takeOverFromDeadSync(accountId: string) {
    const left = await leaseLeftMs(this.database, accountId);
    if (left !== null) await new Promise((resolve) => setTimeout(resolve, Math.min(left, LEASE_MS) + 100));
    return takeLease(this.database, accountId);
  }

  /** The account's kept access token (read with the lease), or why there is none to use. */
  private keptToken(sealedToken: string | null): string | { error: string } {
    if (sealedToken === null) return { error: 'No sign-in is kept for this account' };
    let token: string | null = null;
    try {
      token = this.cipher.decrypt(sealedToken);
    } catch {
      // Sealed with another key (WALLET_TOKEN_KEY changed): only a new sign-in gives a token again.
    }
    return token || { error: 'The kept sign-in can no longer be read' };
  }

  /**
   * Counts a failed try; when the sync gives up on it (an outage SYNC_GIVE_UP_AFTER times in a row, anything else at
   * once), the account's stream records why, in words for its owner.
   */
  private async failed(accountId: string, err: unknown): Promise<void> {
    const failures = await countFailure(this.database.db, accountId);
    this.logger.warn(
      `account ${accountId}: sync failed (${failures} in a row${isOutage(err) ? ', the wallet service is out of reach' : ''}): ` +
        safeErrorMessage(err),
    );
    const reason = givingUpReason(err, failures);
    if (reason === null) return;
    await this.record({ type: 'RecordSyncFailure', data: { accountId, reason, now: clock.now().toISOString() } });
  }

  private async authFailed(accountId: string, reason: string) {
    this.logger.warn(`account ${accountId} needs a new sign-in: ${reason}`);
    await this.record({ type: 'RecordAuthFailure', data: { accountId, reason, now: clock.now().toISOString() } });
  }

  /**
   * What the wallet holds now, recorded in parts of at most SYNC_EVENTS_PER_APPEND events: each part is a command of
   * its own (one append, one short transaction) that decides on what the stream holds. A sync stopped between parts leaves the tickets of the parts recorded; the next sync records the rest, nothing twice.
   * Each part first renews the sync's lease (`held`, also renewed on its timer): a sync that outlived it, the account
   * taken over by another, stops (SyncLeaseLostError) rather than record an older read over the other's.
   */
  private async recordInParts(
    sync: Extract<WalletAccountCommand, { type: 'RecordSync' }>['data'],
    read: KnownStream<WalletAccountState>,
    held: HeldLease,
  ) {
    // The first part is decided on the stream as the sync read it at its start (read again if it moved since).
    let known: KnownStream<WalletAccountState> | undefined = read;
    for (;;) {
      await held.renew();
      const { events } = await this.record(
        { type: 'RecordSync', data: { ...sync, maxEvents: SYNC_EVENTS_PER_APPEND } },
        known,
      );
      known = undefined;
      if (events.length < SYNC_EVENTS_PER_APPEND) return;
    }
  }

  /** A sync's outcome on the account's stream. */
  private record(command: WalletAccountCommand, known?: KnownStream<WalletAccountState>) {
    return this.commandBus.execute(
      new WalletAccountCommandMessage(command, { actorId: 'wallet-sync', commandId: randomUUID() }, undefined, known),
    );
  }
}
