import { Logger } from '@nestjs/common';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { withDeadline } from '../../shared/deadline.js';
import { throttledWarning } from '../../shared/throttled-warning.js';
import { safeErrorMessage } from './db-errors.js';
import type { Database, DatabaseTimeouts, Db } from './database.js';
import type { ReadFloors } from './read-floors.js';
import { parseWalPosition, type WalPosition } from './wal-position.js';

const logger = new Logger('ReadReplicas');
const warn = throttledWarning((message) => logger.warn(message));

/** One replica as the health check and the metrics tell it. */
export interface ReplicaState {
  /** The replica's host and port (never its credentials). */
  name: string;
  /** Serving reads now, or left out (not answering, or behind past the bound). */
  inUse: boolean;
  /** How far behind the primary it was at its last look: seconds since the last change it replayed (0: caught up). */
  lagSeconds: number | null;
  /** And the write-ahead log not yet replayed, in bytes. */
  lagBytes: number | null;
  /** Why it is left out. */
  problem: string | null;
}

export interface ReadReplicasOptions {
  urls: readonly string[];
  timeouts: DatabaseTimeouts;
  /** A replica further behind than this (seconds since the last change it replayed) is left out until it catches up. */
  maxLagMs: number;
  /** How often each replica's replay position and the primary's are read. */
  pollMs: number;
  poolSize: number;
}

interface Replica {
  name: string;
  pool: pg.Pool;
  db: Db;
  /** Replayed up to here at the last look (what it serves is at least this). */
  replayed: WalPosition | null;
  lagSeconds: number | null;
  lagBytes: number | null;
  /** When the last look answered (ms); 0 never. */
  seenAt: number;
  problem: string | null;
}

/** Where a read ran: for the metrics. */
export type ReadTarget = 'primary' | 'replica';

/**
 * Streaming replicas of the primary (DATABASE_READ_URL), for the read routes: a read goes to a replica that has
 * replayed past its reader's floor (read-floors.ts) and is within the lag bound — the same one for a reader while it is
 * fresh enough (docs/architecture.md "Read replicas" tells what moving between replicas may show) — and to the primary
 * otherwise. A replica that stops answering
 * or falls behind is left out until it is back; a read that fails on a replica for want of it is read again from the
 * primary. After a read from the primary, the reader's floor is raised to where the primary is, so their next read
 * from a replica shows at least as much.
 */
export class ReadReplicas {
  private readonly replicas: Replica[];
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private primaryAt: WalPosition | null = null;
  onRead: (target: ReadTarget) => void = () => undefined;

  constructor(
    private readonly primary: Database,
    private readonly floors: ReadFloors,
    private readonly options: ReadReplicasOptions,
  ) {
    this.replicas = options.urls.map((url) => {
      const pool = new pg.Pool({
        connectionString: url,
        max: options.poolSize,
        application_name: 'seatlink-reads',
        statement_timeout: options.timeouts.statementMs,
        idle_in_transaction_session_timeout: options.timeouts.idleInTransactionMs,
        query_timeout: options.timeouts.statementMs + 1000,
        connectionTimeoutMillis: Math.min(options.timeouts.connectMs, 2000),
        keepAlive: true,
      });
      pool.on('error', () => undefined);
      pool.on('connect', (client) => client.on('error', () => undefined));
      const parsed = new URL(url);
      return {
        name: `${parsed.hostname}:${parsed.port || '5432'}`,
        pool,
        db: drizzlePg(pool),
        replayed: null,
        lagSeconds: null,
        lagBytes: null,
        seenAt: 0,
        problem: 'not looked at yet',
      };
    });
  }

  /** Whether any replica is configured (without one, every read is the primary's and nothing is tracked). */
  get enabled(): boolean {
    return this.replicas.length > 0;
  }

  async start(): Promise<void> {
    if (!this.enabled) return;
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
  }

  /** Looks at the primary and every replica once (one look at a time). */
  poll(): Promise<void> {
    this.polling ??= this.look().finally(() => (this.polling = null));
    return this.polling;
  }

  private async look() {
    try {
      const [row] = await this.primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
      this.primaryAt = parseWalPosition(row?.lsn);
    } catch (err) {
      warn('primary', `the primary's WAL position could not be read: ${safeErrorMessage(err)}`);
    }
    await Promise.all(this.replicas.map((replica) => this.lookAt(replica)));
  }

  private async lookAt(replica: Replica) {
    try {
      const bound = Math.max(500, this.options.pollMs * 4);
      const { rows } = await withDeadline(
        replica.pool.query<{ replayed: string | null; recovering: boolean; since: number | null }>(
          `select pg_last_wal_replay_lsn()::text as replayed, pg_is_in_recovery() as recovering,
                  extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as since`,
        ),
        bound,
        () => new Error(`no answer within ${bound} ms`),
      );
      const row = rows[0]!;
      const replayed = parseWalPosition(row.replayed);
      if (!row.recovering || replayed === null) {
        replica.problem = 'not a replica (it replays no WAL)';
        replica.replayed = null;
        return;
      }
      const behind = this.primaryAt !== null && replayed < this.primaryAt;
      replica.replayed = replayed;
      replica.lagBytes = this.primaryAt !== null && behind ? Number(this.primaryAt - replayed) : 0;
      replica.lagSeconds = behind ? Math.max(0, row.since ?? 0) : 0;
      replica.seenAt = Date.now();
      replica.problem =
        replica.lagSeconds * 1000 > this.options.maxLagMs
          ? `${Math.round(replica.lagSeconds)} s behind the primary (bound ${this.options.maxLagMs / 1000} s)`
          : null;
    } catch (err) {
      replica.problem = `does not answer: ${safeErrorMessage(err)}`;
      replica.lagSeconds = null;
      replica.lagBytes = null;
    }
    if (replica.problem) warn(replica.name, `replica ${replica.name} left out: ${replica.problem}`);
  }

  /** Each replica now. */
  states(): ReplicaState[] {
    return this.replicas.map((r) => ({
      name: r.name,
      inUse: this.usable(r),
      lagSeconds: r.lagSeconds,
      lagBytes: r.lagBytes,
      problem: r.problem ?? (this.usable(r) ? null : 'not looked at recently'),
    }));
  }

  private usable(replica: Replica): boolean {
    return (
      replica.problem === null && replica.replayed !== null && Date.now() - replica.seenAt < this.options.pollMs * 5
    );
  }

  /**
   * Runs `read` on a replica fresh enough for these readers (user ids, 'admins'), or on the primary. The readers'
   * floors are raised after a read from the primary.
   */
  async read<T>(readers: readonly string[], read: (db: Db) => Promise<T>): Promise<T> {
    if (!this.enabled) return read(this.primary.db);
    const floor = await this.floors.floorOf(readers);
    const replica = floor === null ? null : this.pick(readers, floor);
    if (replica) {
      try {
        const answer = await read(replica.db);
        this.onRead('replica');
        return answer;
      } catch (err) {
        if (!isConnectionTrouble(err)) throw err;
        replica.problem = `does not answer: ${safeErrorMessage(err)}`;
        warn(replica.name, `replica ${replica.name} left out: ${replica.problem}`);
      }
    }
    const answer = await read(this.primary.db);
    this.onRead('primary');
    await this.raiseToPrimary(readers);
    return answer;
  }

  /** Raises the readers' floors to where the primary is now (at least what they just read from it). */
  async raiseToPrimary(readers: readonly string[]): Promise<void> {
    if (!this.enabled || readers.length === 0) return;
    try {
      const [row] = await this.primary.query<{ lsn: string }>(
        'select pg_current_wal_lsn()::text as lsn',
        [],
        'seatlink-wal-position',
      );
      const at = parseWalPosition(row?.lsn);
      if (at !== null) await this.floors.raise(readers, at);
    } catch (err) {
      // Their floor stays lower: a replica could then show them less than they saw. Said, not hidden.
      warn('floor', `a reader's floor could not be raised: ${safeErrorMessage(err)}`);
    }
  }

  /** The replica for these readers: the same one each time while it is fresh enough, else the next that is. */
  private pick(readers: readonly string[], floor: WalPosition): Replica | null {
    const n = this.replicas.length;
    const start = stableIndex(readers[0] ?? '', n);
    for (let i = 0; i < n; i++) {
      const replica = this.replicas[(start + i) % n]!;
      if (this.usable(replica) && replica.replayed! >= floor) return replica;
    }
    return null;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.polling?.catch(() => undefined);
    await Promise.all(this.replicas.map((r) => r.pool.end().catch(() => undefined)));
  }
}

function stableIndex(key: string, n: number): number {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  return Math.abs(hash) % n;
}

/**
 * An error of the replica, not of the statement: it went away (or is starting), or cancelled the read for a change it
 * had to replay (a conflict with recovery).
 */
function isConnectionTrouble(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  const message = err instanceof Error ? err.message : '';
  return (
    /^(08|57P)/.test(code) ||
    (code === '40001' && /recovery/i.test(message)) ||
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'].includes(code) ||
    /timeout|terminat|Connection|ended/i.test(message)
  );
}

/** Whose floors a caller's read must reach: their own, and an admin's the admins' too (what admins are told). */
export function readersOf(user: { id: string; is_admin: boolean }): string[] {
  return user.is_admin ? [user.id, 'admins'] : [user.id];
}
