import type { ParkedEventView } from '@seatlink/contracts';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { errorCode } from '../db/db-errors.js';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port.js';
import { decodePosition } from '../event-store/sql-event-store.js';
import { readCheckpoints } from './checkpoints.js';
import { HOST_ROLE, SUBSCRIPTIONS_LOCK_KEY } from './subscription-host.js';
import type { LiveUpdate, Subscription } from './subscription.js';
import { SubscriptionRunner } from './subscription-runner.js';

/** Past these, `/health` answers 503 `degraded` (README: "How the core works"; configurable). */
export interface HealthThresholds {
  /** Events a subscription may be behind the head. */
  lagEvents: number;
  /** Seconds without a heartbeat from the process running the subscriptions. */
  hostSilentSeconds: number;
  /** Seconds a transaction of this database may stay open while it holds the feed back. */
  oldestTransactionSeconds: number;
  /** Seconds a committed event may wait, unreadable, behind a transaction still open (the feed stalled). */
  heldBackSeconds: number;
}

export const DEFAULT_HEALTH_THRESHOLDS: HealthThresholds = {
  lagEvents: 10_000,
  hostSilentSeconds: 30,
  oldestTransactionSeconds: 60,
  heldBackSeconds: 5,
};

export interface SubscriptionStatus {
  name: string;
  kind: Subscription['kind'];
  checkpoint: string | null;
  /** About how many events it is behind the head (from positions, not by counting events). */
  lag: number;
  parked: number;
}

export interface FeedStatus {
  head: string | null;
  subscriptions: SubscriptionStatus[];
  host: { owner: string; heartbeatAgeSeconds: number } | null;
  /** Age of the oldest transaction open in this database (it holds newer events back), when known. */
  oldestTransactionSeconds: number | null;
  /**
   * How long the oldest committed event the feed cannot show yet has waited (a transaction open since before it holds
   * every reader back); null when nothing is held back.
   */
  heldBackSeconds: number | null;
  /** Whether a process holds the subscriptions' lock right now. */
  hostHoldsLock: boolean;
  parked: number;
  /** Why the pipeline counts as degraded; empty when healthy. */
  problems: string[];
}

/** A parked event as operators see it (the admin API's shape). */
export type ParkedEvent = ParkedEventView;

/** The event was retried or skipped already. */
export class ParkedEventNotParkedError extends Error {
  constructor(id: string) {
    super(`Parked event ${id} was already retried or skipped`);
    this.name = 'ParkedEventNotParkedError';
  }
}

export class ParkedEventNotFoundError extends Error {
  constructor(id: string) {
    super(`No parked event ${id}`);
    this.name = 'ParkedEventNotFoundError';
  }
}

/** The global position within a feed position (SQL store); 0 for none or another store's format. */
function globalPosition(position: string | null): bigint {
  if (!position) return 0n;
  try {
    return decodePosition(position)[2];
  } catch {
    return 0n;
  }
}

/**
 * What an operator sees and does with the subscriptions: their lag and parked events (health, admin API, CLI), a retry
 * or skip of a parked event, and a reset for a rebuild.
 */
export class SubscriptionOperations {
  constructor(
    private readonly database: Database,
    private readonly store: EventStore,
    private readonly subscriptions: () => readonly Subscription[],
    private readonly onLive?: (updates: LiveUpdate[]) => void,
    private readonly thresholds: HealthThresholds = DEFAULT_HEALTH_THRESHOLDS,
  ) {}

  async status(): Promise<FeedStatus> {
    const [head, checkpoints, parkedRows, hostRows, oldestRows, heldRows, lockRows] = await Promise.all([
      this.store.headPosition(),
      readCheckpoints(this.database),
      this.database.query<{ subscription: string; n: number }>(
        `select subscription, count(*)::int as n from parked_events where status = 'parked' group by subscription`,
      ),
      // Ages are measured by the database's clock, the one that wrote the heartbeat.
      this.database.query<{ owner: string; age: number }>(
        `select owner, extract(epoch from now() - heartbeat_at)::float8 as age from subscription_hosts where role = $1`,
        [HOST_ROLE],
      ),
      this.database
        .query<{ age: number | null }>(
          `select extract(epoch from now() - min(xact_start))::float8 as age from pg_stat_activity
           where datid = (select oid from pg_database where datname = current_database())
             and backend_xid is not null and pid <> pg_backend_pid()`,
        )
        .catch(() => [{ age: null }]),
      // The events committed beyond the feed's bound: readers cannot see them while an older transaction is open.
      this.database
        .query<{ age: number | null }>(
          `select extract(epoch from now() - min(e.created_at))::float8 as age
             from events e, seatlink_feed_bound() b
            where (e.epoch, e.transaction_id) >= (b.o_epoch, b.o_bound)`,
        )
        .catch(() => [{ age: null }]),
      // The subscriptions' lock as the server holds it now: a host whose connection died holds nothing, at once
      // (its heartbeat would look fresh for a while).
      this.database.query<{ held: boolean }>(
        `select exists (select 1 from pg_locks where locktype = 'advisory' and granted and objsubid = 1
                          and classid = 0 and objid = $1
                          and database = (select oid from pg_database where datname = current_database())) as held`,
        [SUBSCRIPTIONS_LOCK_KEY],
      ),
    ]);
    const parkedBy = new Map(parkedRows.map((r) => [r.subscription, Number(r.n)]));
    const headPos = globalPosition(head);
    const subscriptions = this.subscriptions().map((s): SubscriptionStatus => {
      const checkpoint = checkpoints.get(s.name) ?? null;
      const at = globalPosition(checkpoint);
      const lag = headPos > at ? Number(headPos - at) : 0;
      return { name: s.name, kind: s.kind, checkpoint, lag, parked: parkedBy.get(s.name) ?? 0 };
    });
    const host = hostRows[0]
      ? { owner: hostRows[0].owner, heartbeatAgeSeconds: Math.max(0, Math.round(Number(hostRows[0].age))) }
      : null;
    const oldestAge = oldestRows[0]?.age;
    const oldestTransactionSeconds = oldestAge == null ? null : Math.max(0, Math.round(Number(oldestAge)));
    const parked = [...parkedBy.values()].reduce((a, b) => a + b, 0);
    const heldAge = heldRows[0]?.age;
    const heldBackSeconds = heldAge == null ? null : Math.max(0, Math.round(Number(heldAge)));
    const hostHoldsLock = lockRows[0]?.held === true;

    const problems: string[] = [];
    if (parked > 0) problems.push(`${parked} parked event(s)`);
    for (const s of subscriptions) {
      if (s.lag > this.thresholds.lagEvents) problems.push(`${s.name} is ${s.lag} events behind`);
    }
    if (!host) problems.push('no process has run the subscriptions yet');
    else if (host.heartbeatAgeSeconds > this.thresholds.hostSilentSeconds) {
      problems.push(`the subscriptions host has been silent for ${host.heartbeatAgeSeconds} s`);
    } else if (hostHoldsLock === false) {
      problems.push('no process runs the subscriptions now (their lock is free)');
    }
    if (heldBackSeconds !== null && heldBackSeconds > this.thresholds.heldBackSeconds) {
      problems.push(`the feed is stalled: events committed ${heldBackSeconds} s ago cannot be read yet`);
    }
    if (oldestTransactionSeconds !== null && oldestTransactionSeconds > this.thresholds.oldestTransactionSeconds) {
      problems.push(`a transaction open for ${oldestTransactionSeconds} s holds the feed back`);
    }
    return { head, subscriptions, host, oldestTransactionSeconds, heldBackSeconds, hostHoldsLock, parked, problems };
  }

  async listParked(status: ParkedEvent['status'] | 'all' = 'parked'): Promise<ParkedEvent[]> {
    const rows = await this.database.query<Record<string, unknown>>(
      `select * from parked_events ${status === 'all' ? '' : 'where status = $1'} order by parked_at, id limit 1000`,
      status === 'all' ? [] : [status],
    );
    return rows.map(toParked);
  }

  /**
   * Applies a parked event again, out of its turn. Answers the event as it now stands: `retried` when it went through;
   * still `parked` (with the new error) when it failed again.
   */
  async retry(id: string, by: string): Promise<ParkedEvent> {
    // Claimed first, so two retries (two operators, a double click) cannot both apply it.
    const claimed = await this.database.query<{ subscription: string }>(
      `update parked_events set status = 'retried', resolved_at = now(), resolved_by = $2
       where id = $1 and status = 'parked' returning subscription`,
      [id, by],
    );
    if (claimed.length === 0) {
      await this.findParked(id);
      throw new ParkedEventNotParkedError(id);
    }
    const subscription = this.subscriptions().find((s) => s.name === claimed[0]!.subscription);
    const event = await this.readEvent(id);
    const error = subscription
      ? await new SubscriptionRunner(this.database, this.store, subscription, {
          batchSize: 1,
          retry: { attempts: 1, initialMs: 0 },
          onLive: this.onLive,
          logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
        }).reapply(event)
      : `No subscription named ${claimed[0]!.subscription} runs here`;
    if (error !== null) {
      await this.database.query(
        `update parked_events set status = 'parked', resolved_at = null, resolved_by = null, error = $2,
           attempts = attempts + 1
         where id = $1`,
        [id, error],
      );
    }
    return this.findParked(id);
  }

  async skip(id: string, by: string): Promise<ParkedEvent> {
    const skipped = await this.database.query(
      `update parked_events set status = 'skipped', resolved_at = now(), resolved_by = $2
       where id = $1 and status = 'parked' returning id`,
      [id, by],
    );
    if (skipped.length === 0) {
      await this.findParked(id);
      throw new ParkedEventNotParkedError(id);
    }
    return this.findParked(id);
  }

  /**
   * Empties the named projections' tables and moves their checkpoints back to the start, in one transaction: the
   * process running the subscriptions (or `drain`) rebuilds them from the events.
   */
  async reset(names: readonly string[]): Promise<void> {
    const chosen = this.subscriptions().filter((s) => names.includes(s.name));
    const unknown = names.filter((n) => !chosen.some((s) => s.name === n));
    if (unknown.length > 0) throw new Error(`No read model named ${unknown.join(', ')}`);
    const reactions = chosen.filter((s) => s.kind !== 'projection');
    if (reactions.length > 0)
      throw new Error(`Only read models are rebuilt, not ${reactions.map((r) => r.name).join(', ')}`);
    const tables = [...new Set(chosen.flatMap((s) => s.tables ?? []))];
    // A subscription committing a step meanwhile locks its checkpoint, then its tables: the other order from this one.
    // The database then gives up one of the two (a deadlock), and a reset given up is tried again.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.database.db.transaction(async (tx) => {
          if (tables.length > 0)
            await tx.execute(sql.raw(`truncate ${tables.map((t) => `"${t}"`).join(', ')} restart identity`));
          for (const s of chosen) {
            await tx.execute(sql`insert into subscription_checkpoints (name, position, updated_at) values (${s.name}, null, now())
              on conflict (name) do update set position = null, updated_at = now()`);
            // A skip is an operator's decision: kept, so the rebuild leaves that event out again (see
            // SubscriptionRunner).
            await tx.execute(sql`delete from parked_events where subscription = ${s.name} and status <> 'skipped'`);
          }
        });
        return;
      } catch (err) {
        if (attempt >= 5 || errorCode(err) !== '40P01') throw err;
      }
    }
  }

  private async findParked(id: string): Promise<ParkedEvent> {
    const [row] = await this.database.query<Record<string, unknown>>('select * from parked_events where id = $1', [id]);
    if (!row) throw new ParkedEventNotFoundError(id);
    return toParked(row);
  }

  /** The event as it was parked (a copy kept with it, whichever store holds the events). */
  private async readEvent(id: string): Promise<RecordedEvent> {
    const [row] = await this.database.query<Record<string, unknown>>('select * from parked_events where id = $1', [id]);
    if (!row) throw new ParkedEventNotFoundError(id);
    return {
      id: String(row.event_id),
      streamId: String(row.stream_id),
      revision: Number(row.stream_revision),
      position: String(row.position),
      type: String(row.event_type),
      data: row.event_data,
      metadata: (row.event_metadata ?? {}) as RecordedEvent['metadata'],
      createdAt: new Date(row.event_created_at as string),
    };
  }
}

function toParked(row: Record<string, unknown>): ParkedEvent {
  const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
  return {
    id: String(row.id),
    subscription: String(row.subscription),
    event_id: String(row.event_id),
    event_type: String(row.event_type),
    stream_id: String(row.stream_id),
    position: String(row.position),
    error: String(row.error),
    attempts: Number(row.attempts),
    parked_at: iso(row.parked_at)!,
    status: row.status as ParkedEvent['status'],
    resolved_at: iso(row.resolved_at),
    resolved_by: (row.resolved_by as string | null) ?? null,
  };
}
