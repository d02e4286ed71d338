import { sql } from 'drizzle-orm';
import { type Database, type Executor, queryRows } from '../../infra/db/database.js';
import { isTransientFailure } from '../../infra/transient-failure.js';
import { WalletRateLimitedError, WalletUnavailableError } from '../../infra/wallet/wallet-provider.port.js';
import { MAX_PASSES, WalletTooLargeError } from './wallet-pass-reader.js';

// An account's sync as the database keeps it beside the events: who holds it now (a lease), how many tries failed in
// a row, when it last went through. And when a failed try gives up, in words for the account's owner.

/**
 * A sync holds its account this long past the last word from it: its holder renews it every LEASE_RENEW_EVERY_MS while
 * the sync runs (HeldLease), so a live sync keeps it however long it takes, and a worker that died mid-sync leaves it
 * free this long after its last renewal at most. Two renewals in a row may fail (a database away for a moment) before
 * it runs out.
 */
export const LEASE_MS = 15_000;
export const LEASE_RENEW_EVERY_MS = 5_000;

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

/** Whether a failure is the wallet service (or the database) being out of reach for now: it is retried quietly. */
export function isOutage(err: unknown): boolean {
  return (
    err instanceof WalletUnavailableError ||
    err instanceof WalletRateLimitedError ||
    (err instanceof Error && /rate limited/.test(err.message)) ||
    isTransientFailure(err)
  );
}

/** What the account shows for a failed try that is the `failures`-th in a row; null while the sync keeps trying. */
export function givingUpReason(err: unknown, failures: number): string | null {
  const outage = isOutage(err);
  if (outage && failures < SYNC_GIVE_UP_AFTER) return null;
  if (err instanceof WalletTooLargeError) return SYNC_FAILURE_MESSAGES.tooMany;
  return outage ? SYNC_FAILURE_MESSAGES.unavailable : SYNC_FAILURE_MESSAGES.failed;
}

/**
 * The lease a sync holds: the moment it runs out, as the database wrote it (`running_until`, to the microsecond). It
 * names the holder: a sync that outlived its lease (another took the account over) renews or gives back nothing.
 */
export type SyncLease = string;

/** A sync outlived its lease and another took the account over: it records nothing more (the other's read is newer). */
export class SyncLeaseLostError extends Error {
  constructor(accountId: string) {
    super(`account ${accountId}: the sync's lease ran out and another sync took the account over`);
    this.name = 'SyncLeaseLostError';
  }
}

/**
 * Takes the account's sync lease and, in the same statement, reads the sign-in kept for the account's syncs: null when
 * another sync holds the lease; `sealedToken` null when no sign-in is kept.
 */
export async function takeLease(
  database: Database,
  accountId: string,
  leaseMs = LEASE_MS,
): Promise<{ sealedToken: string | null; lease: SyncLease } | null> {
  const [row] = await database.query<{ sealed_token: string | null; lease: string }>(
    `with lease as (
       insert into wallet_sync_state (account_id, running_until)
       values ($1, now() + make_interval(secs => $2))
       on conflict (account_id) do update set running_until = excluded.running_until
       where wallet_sync_state.running_until is null or wallet_sync_state.running_until < now()
       returning account_id, running_until
     )
     select c.sealed_token, l.running_until::text as lease
     from lease l left join wallet_credentials c on c.account_id = l.account_id`,
    [accountId, leaseMs / 1000],
    'seatlink_wallet_sync_take_lease',
  );
  return row ? { sealedToken: row.sealed_token, lease: row.lease } : null;
}

/**
 * Holds the lease `leaseMs` more from now; answers the renewed lease, or throws SyncLeaseLostError when it is not this
 * sync's any more. A sync renews through its HeldLease: never two renewals at once (each names the lease the last
 * one gave).
 */
export async function renewLease(
  database: Database,
  accountId: string,
  lease: SyncLease,
  leaseMs = LEASE_MS,
): Promise<SyncLease> {
  const [row] = await database.query<{ lease: string }>(
    `update wallet_sync_state set running_until = now() + make_interval(secs => $3)
     where account_id = $1 and running_until = $2::timestamptz
     returning running_until::text as lease`,
    [accountId, lease, leaseMs / 1000],
    'seatlink_wallet_sync_renew_lease',
  );
  if (!row) throw new SyncLeaseLostError(accountId);
  return row.lease;
}

/** How long until the account's lease runs out, in ms (0: it has); null when no sync holds it. */
export async function leaseLeftMs(database: Database, accountId: string): Promise<number | null> {
  const [row] = await database.query<{ left_ms: number | null }>(
    `select case when running_until is not null
                 then greatest(0, extract(epoch from running_until - now()) * 1000)::float8 end as left_ms
     from wallet_sync_state where account_id = $1`,
    [accountId],
    'seatlink_wallet_sync_lease_left',
  );
  return row?.left_ms ?? null;
}

/**
 * The lease as its sync holds it while it runs: renewed on a timer (every LEASE_RENEW_EVERY_MS), not only before each
 * part it records, so a sync that waits long on the provider keeps its account while it lives, and loses it soon
 * after it dies. Renewals happen one at a time, each naming the lease the one before it gave; once one finds the lease
 * taken over, every later renewal throws SyncLeaseLostError (the sync records nothing more) and the timer stops.
 */
export class HeldLease {
  private current: SyncLease;
  private lost: SyncLeaseLostError | null = null;
  /** The last renewal asked for (settled or not): the next one starts after it. */
  private renewing: Promise<unknown> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly leaseMs: number;

  constructor(
    private readonly database: Database,
    private readonly accountId: string,
    lease: SyncLease,
    options: { leaseMs?: number; renewEveryMs?: number; onTimerFailure: (err: unknown) => void },
  ) {
    this.current = lease;
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.timer = setInterval(
      () => void this.renew().catch(options.onTimerFailure),
      options.renewEveryMs ?? LEASE_RENEW_EVERY_MS,
    );
    this.timer.unref();
  }

  /** Renews it now (after a renewal under way); throws SyncLeaseLostError once it is another sync's. */
  renew(): Promise<void> {
    const renewal = this.renewing.then(async () => {
      if (this.lost) throw this.lost;
      try {
        this.current = await renewLease(this.database, this.accountId, this.current, this.leaseMs);
      } catch (err) {
        if (err instanceof SyncLeaseLostError) {
          this.lost = err;
          clearInterval(this.timer);
        }
        throw err;
      }
    });
    this.renewing = renewal.catch(() => undefined);
    return renewal;
  }

  /** Stops renewing; answers the lease as it stands once a renewal under way has ended (to give it back with). */
  async stop(): Promise<SyncLease> {
    clearInterval(this.timer);
    await this.renewing;
    return this.current;
  }
}

/** Counts a failed try; answers how many failed in a row. */
export async function countFailure(db: Executor, accountId: string): Promise<number> {
  const [row] = await queryRows<{ failed_attempts: number }>(
    db,
    sql`update wallet_sync_state set failed_attempts = failed_attempts + 1
        where account_id = ${accountId} returning failed_attempts`,
  );
  return Number(row?.failed_attempts ?? 1);
}

/**
 * Gives the lease back with the try's error (null: none); a sync that went through also clears the failures. Only the
 * holder's: a sync that outlived its lease leaves the account to the one that took it over.
 */
export async function releaseLease(
  database: Database,
  accountId: string,
  lease: SyncLease,
  error: string | null,
  synced: boolean,
) {
  await database.query(
    `update wallet_sync_state
     set running_until = null, last_sync_error = $2,
         last_synced_at = case when $3::boolean then $4::timestamptz else last_synced_at end,
         failed_attempts = case when $3::boolean then 0 else failed_attempts end
     where account_id = $1 and running_until = $5::timestamptz`,
    [accountId, error ? error.slice(0, 500) : null, synced, synced ? new Date() : null, lease],
    'seatlink_wallet_sync_release_lease',
  );
}
