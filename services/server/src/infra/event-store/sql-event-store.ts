import { type Database, queryRows, sqlWithParams, type Tx } from '../db/database.js';
import { errorCode, rootCause } from '../db/db-errors.js';
import {
  type AppendResult,
  DuplicateEventIdError,
  type EventStore,
  type ExpectedRevision,
  type InDatabaseStep,
  InvalidEventDataError,
  CLAIMS_STREAM_PREFIX,
  type NewEvent,
  type PositionedEvent,
  type FeedPage,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamAppend,
  type StreamAppendResult,
  WrongExpectedRevisionError,
  storedMetadata,
} from './event-store.port.js';
import {
  appendToStreamsSql,
  appendToStreamsParam,
  groupStreams,
  READ_STREAMS_CHUNK,
  READ_STREAMS_SQL,
  REVISIONS_SQL,
  streamAppendResults,
  type StreamsAppendRow,
  streamsRefusal,
} from './sql-stream-batch.js';

const CHANNEL = 'seatlink_events';
/**
 * Wake-ups to other processes are coalesced: at most one NOTIFY per this many milliseconds per process (each NOTIFY is
 * a transaction that takes the cluster's notification queue lock at commit), the first of a burst without delay.
 */
const NOTIFY_WINDOW_MS = 20;
/** A NOTIFY's payload must stay under 8,000 bytes; past this, it names no types (any may have been appended). */
const MAX_NOTIFY_PAYLOAD = 4000;

const readAllParams = (after: string | null, limit: number) => {
  const [epoch, tx, pos] = after ? decodePosition(after) : [0n, 0n, 0n];
  return [Number(epoch), tx.toString(), pos.toString(), limit];
};
const typesOf = (events: ReadonlyArray<{ type: string }>): ReadonlySet<string> => new Set(events.map((e) => e.type));
const payloadOf = (types: ReadonlySet<string>) => [...types].join(',');
/** The types a NOTIFY names; null when it names none (an older process, or too many to name). */
const typesFromPayload = (payload: string): ReadonlySet<string> | null =>
  payload ? new Set(payload.split(',')) : null;

interface EventRow {
  epoch: number;
  tx: string;
  pos: string;
  stream_id: string;
  stream_position: number;
  event_id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  created_at: Date | string;
}

interface TransactionScope {
  tx: Tx;
  afterCommit: (work: () => void) => void;
  /** The store on the database, whose listeners an append in the transaction wakes once it commits. */
  root: SqlEventStore;
}

interface AppendRow {
  stream_position: number;
  epoch: number;
  tx: string;
  pos: string;
}

/** Feed positions are `<epoch>:<transaction id>:<global position>`, compared as a triple of integers. */
export function encodePosition(epoch: number | string, transactionId: string, globalPosition: string): string {
  return `${epoch}:${transactionId}:${globalPosition}`;
}

/** The integers of a position; `<tx>:<pos>` (written before epochs existed) is epoch 0. */
export function decodePosition(position: string): [bigint, bigint, bigint] {
  const parts = position.split(':');
  if (parts.length === 2) parts.unshift('0');
  if (parts.length !== 3 || !parts.every((p) => /^\d+$/.test(p))) throw new Error(`Not a feed position: ${position}`);
  return parts.map((p) => BigInt(p)) as [bigint, bigint, bigint];
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: Number(row.stream_position),
    position: encodePosition(row.epoch, String(row.tx), String(row.pos)),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    createdAt: new Date(row.created_at),
  };
}

const COLUMNS = `epoch, transaction_id::text as tx, global_position::text as pos, stream_id, stream_position, event_id,
  type, data, metadata, created_at`;

const EXPECTED_CODES: Record<Exclude<ExpectedRevision, number>, number> = {
  no_stream: -1,
  any: -2,
  stream_exists: -3,
};

/** SQLSTATEs of data PostgreSQL refuses to store (NUL in text or jsonb, bad encoding, a value out of range). */
const INVALID_DATA_CODES = new Set(['22P05', '22P02', '22021', '22003', '22008', '22007', '54000']);

/** The driver's own message (inside a transaction, drizzle's wrapper carries the query and its parameters instead). */
const driverMessage = (err: unknown) => String((rootCause(err) as Error | null)?.message ?? err);

/**
 * The partition of the event log a stream's events are in (docs/architecture.md, "The event log's partitions"): a
 * link's clicks in the claims' months, every other stream in events_main. Statements about one stream name its
 * partition, not the partitioned `events`: PostgreSQL then plans and locks that partition alone.
 */
export const logTableOf = (streamId: string): LogTable =>
  streamId.startsWith(CLAIMS_STREAM_PREFIX) ? 'events_claims' : 'events_main';
type LogTable = 'events_main' | 'events_claims';

/**
 * The rows of the stream `stream` (an SQL expression) in its partition `table`: a click stream's include its events
 * compacted (`seatlink_compacted_streams`), as they were.
 */
const streamRows = (table: LogTable, stream: string) =>
  table === 'events_main'
    ? `(select * from events_main where stream_id = ${stream})`
    : `(select * from events_claims where stream_id = ${stream}
        union all select * from seatlink_compacted_streams(array[${stream}::text]))`;

/**
 * One append, one statement: the events go in at the positions after the expected revision, in the stream's
 * partition `table` (logTableOf).
 *   $1 stream id; $2 expected revision: a revision >= 0, -1 (no stream), -2 (any), -3 (the stream exists);
 *   $3 the events as a JSON array of { id, type, data, metadata }.
 * Answers the inserted rows, or none when the expected revision is not there or another append holds the positions
 * (a conflict on the stream's key inserts nothing and raises nothing: contention is normal, and an error would cost a
 * line in the server's log each time). An append is whole or nothing: one that could take only some of its positions
 * fails (seatlink_refuse_partial_append). An event id that exists fails with a unique violation in events_main; in
 * the claims' months it is skipped as a taken position is (they are partitioned: no one key of theirs to name).
 */
export const appendSql = (table: LogTable) => `
  with inserted as (
    insert into ${table} (epoch, stream_id, stream_position, event_id, type, data, metadata)
    select (select m.epoch from event_store_meta m where m.id = 1), $1, b.p + x.i::integer, (x.ev ->> 'id')::uuid,
           x.ev ->> 'type', coalesce(x.ev -> 'data', '{}'::jsonb), coalesce(x.ev -> 'metadata', '{}'::jsonb)
    from jsonb_array_elements($3::jsonb) with ordinality as x(ev, i),
         (select case when $2::integer >= -1 then $2::integer
                      else coalesce((select max(e.stream_position) from ${streamRows(table, '$1')} e), -1)
                 end as p) as b
    where ${
      table === 'events_main'
        ? `$2::integer in (-1, -2) or exists (select 1 from events_main e where e.stream_id = $1 and e.stream_position = b.p)`
        : // No one key spans the months and the compacted events: the expected revision must be the stream's last.
          `(select coalesce(max(e.stream_position), -1) from ${streamRows(table, '$1')} e) = b.p
           and ($2::integer <> -3 or b.p >= 0)`
    }
    on conflict ${table === 'events_main' ? '(stream_id, stream_position) ' : ''}do nothing
    returning stream_position, epoch, transaction_id, global_position
  )
  select i.stream_position, i.epoch, i.transaction_id::text as tx, i.global_position::text as pos,
         case when (select count(*) from inserted) < jsonb_array_length($3::jsonb)
              then seatlink_refuse_partial_append($1) end as refused
  from inserted i`;

/** APPEND_SQL of a stream in events_main (every stream but a link's clicks), for tests that append in transactions. */
export const APPEND_SQL = appendSql('events_main');
const APPEND_TO = { events_main: APPEND_SQL, events_claims: appendSql('events_claims') };
const APPEND_TO_STREAMS = {
  events: appendToStreamsSql('events'),
  events_main: appendToStreamsSql('events_main'),
  events_claims: appendToStreamsSql('events_claims'),
};

/** Whether any of the event ids `ids` (an SQL expression) is in the log: why an append took none of them. */
const ID_TAKEN = (ids: string) => `select exists (select 1 from events t where t.event_id = any(${ids}::uuid[]))`;

/** Events at positions their callers hold, many streams at once; a taken position or event id is skipped. */
const RECORD_AT_POSITIONS_SQL = `
  insert into events (epoch, stream_id, stream_position, event_id, type, data, metadata)
  select (select m.epoch from event_store_meta m where m.id = 1), x.stream_id, x.position, x.id, x.type,
         coalesce(x.data, '{}'::jsonb), coalesce(x.metadata, '{}'::jsonb)
  from jsonb_to_recordset($1::jsonb) as x(stream_id text, position integer, id uuid, type text, data jsonb, metadata jsonb)
  on conflict do nothing`;

/** The parameters of APPEND_SQL. */
export function appendParams(streamId: string, expected: ExpectedRevision, events: readonly NewEvent[]) {
  return [
    streamId,
    typeof expected === 'number' ? expected : EXPECTED_CODES[expected],
    JSON.stringify(
      events.map((e) => ({ id: e.id, type: e.type, data: e.data ?? {}, metadata: storedMetadata(e.metadata) })),
    ),
  ];
}

/** Tries of an append with expected revision `any` that keeps meeting another append at the same position. */
const ANY_ATTEMPTS = 20;

/**
 * The event store on PostgreSQL.
 *
 * An append is one prepared statement (APPEND_SQL): a stream's revision is its last position, and the key
 * (stream_id, stream_position) refuses a second append at a taken position, so two appends with the same expected
 * revision cannot both succeed — without a table of streams to lock and update. A repeated append (the same event
 * ids) is recognised only when an append is refused, so the usual append pays nothing for it.
 *
 * Gap safety: a bigserial is taken when a row is inserted, not when its transaction commits, so a reader that orders
 * by it could pass a position whose transaction commits later. The feed is ordered by (epoch, transaction id,
 * position) and shows only transactions older than the oldest one still open in this database
 * (`seatlink_read_all`), as Marten and Emmett do it with the cluster-wide snapshot xmin.
 */
type AppendListener = (types: ReadonlySet<string> | null) => void;

/**
 * The append listeners of each database object in this process, whichever store they listen through: every append
 * on the database wakes them at once, so the NOTIFYs sent from its own connections need not wake them again.
 */
const listenersHere = new WeakMap<Database, Set<AppendListener>>();
const listenersOf = (database: Database) => {
  let set = listenersHere.get(database);
  if (!set) listenersHere.set(database, (set = new Set()));
  return set;
};

export class SqlEventStore implements EventStore {
  /** The listeners added through this store (removed when it closes). */
  private readonly localListeners = new Set<AppendListener>();
  private notifyTimer: NodeJS.Timeout | null = null;
  /** The types appended since the last NOTIFY, for the next one (none: nothing appended since). */
  private notifyPending: Set<string> | undefined = undefined;

  constructor(
    private readonly database: Database,
    /** Set on a store bound to one open transaction (`withinTransaction`). */
    private readonly scope: TransactionScope | null = null,
  ) {}

  /**
   * This store inside an open transaction: its reads see the transaction's own writes and its appends commit (or roll
   * back) with it. Each append runs in a savepoint, so a refused one leaves the transaction usable. Listeners are woken
   * once the transaction has committed.
   */
  withinTransaction(tx: Tx, afterCommit: (work: () => void) => void): EventStore {
    const root = this.scope?.root ?? this;
    return new SqlEventStore(this.database, { tx, afterCommit, root });
  }

  /** One statement: on the database (prepared when named) or in the bound transaction. */
  private run<T>(text: string, params: readonly unknown[], name?: string): Promise<T[]> {
    if (!this.scope) return this.database.query<T>(text, params, name);
    return queryRows<T>(this.scope.tx, sqlWithParams(text, params));
  }

  async appendToStream(
    streamId: string,
    newEvents: readonly NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    if (newEvents.length === 0) throw new Error('Nothing to append');
    const params = appendParams(streamId, expected, newEvents);
    const table = logTableOf(streamId);
    for (let attempt = 1; ; attempt++) {
      let rows: AppendRow[];
      try {
        const scope = this.scope;
        rows = scope
          ? await scope.tx.transaction((savepoint) =>
              queryRows<AppendRow>(savepoint, sqlWithParams(APPEND_TO[table], params)),
            )
          : await this.database.query<AppendRow>(APPEND_TO[table], params, `seatlink_append_${table}`);
      } catch (err) {
        const code = errorCode(err);
        if (code && INVALID_DATA_CODES.has(code)) throw new InvalidEventDataError(streamId, driverMessage(err));
        // 40001: only part of the positions or ids were free (another append took the rest); 23505 as it.
        if (code !== '23505' && code !== '40001') throw err;
        rows = [];
      }
      if (rows.length === 0) {
        const refusal = await this.refusal(streamId, newEvents);
        if (refusal.repeated) return refusal.repeated;
        if (refusal.idTaken) throw new DuplicateEventIdError(streamId);
        // Another append took the position first (with `any` the precondition always holds).
        if (expected === 'any' && attempt < ANY_ATTEMPTS) continue;
        throw new WrongExpectedRevisionError(streamId, expected, refusal.revision);
      }
      const last = rows.reduce((a, b) => (BigInt(b.pos) > BigInt(a.pos) ? b : a));
      this.appended(typesOf(newEvents));
      return { nextRevision: Number(last.stream_position), position: encodePosition(last.epoch, last.tx, last.pos) };
    }
  }

  async appendToStreams(appends: readonly StreamAppend[]): Promise<StreamAppendResult[]> {
    if (appends.length === 0) return [];
    const params = [appendToStreamsParam(appends)];
    const tables = new Set(appends.map((a) => logTableOf(a.streamId)));
    const table = tables.size === 1 ? [...tables][0]! : 'events';
    const text = APPEND_TO_STREAMS[table];
    let rows: StreamsAppendRow[];
    try {
      const scope = this.scope;
      rows = scope
        ? await scope.tx.transaction((savepoint) => queryRows<StreamsAppendRow>(savepoint, sqlWithParams(text, params)))
        : await this.database.query<StreamsAppendRow>(text, params, `seatlink_append_to_streams_${table}`);
    } catch (err) {
      const code = errorCode(err);
      if (code && INVALID_DATA_CODES.has(code)) {
        throw new InvalidEventDataError(appends[0]!.streamId, driverMessage(err));
      }
      if (code !== '23505' && code !== '40001') throw err;
      rows = [];
    }
    if (rows.length === 0) throw await this.streamsRefusal(appends);
    this.appended(typesOf(appends.flatMap((a) => a.events)));
    return streamAppendResults(appends, rows, encodePosition);
  }

  private async streamsRefusal(appends: readonly StreamAppend[]): Promise<Error> {
    const revisions = await this.run<{ stream_id: string; revision: number }>(
      REVISIONS_SQL,
      [appends.map((a) => a.streamId)],
      'seatlink_revisions',
    );
    const [taken] = await this.run<{ taken: boolean }>(
      `${ID_TAKEN('$1')} as taken`,
      [appends.flatMap((a) => a.events.map((e) => e.id))],
      'seatlink_ids_taken',
    );
    return streamsRefusal(appends, revisions, taken?.taken === true);
  }

  async readStreams(streamIds: readonly string[]): Promise<Map<string, ReadStreamResult>> {
    const ids = [...new Set(streamIds)];
    const events: RecordedEvent[] = [];
    for (let i = 0; i < ids.length; i += READ_STREAMS_CHUNK) {
      const rows = await this.run<EventRow>(
        READ_STREAMS_SQL(COLUMNS),
        [ids.slice(i, i + READ_STREAMS_CHUNK)],
        'seatlink_read_streams',
      );
      for (const row of rows) events.push(toRecorded(row));
    }
    return groupStreams(ids, events);
  }

  /**
   * Why an append was refused, in one round trip: the stream's revision, and whether these very events were appended
   * to it before (a retry: then the answer is that earlier append's).
   */
  private async refusal(
    streamId: string,
    newEvents: readonly NewEvent[],
  ): Promise<{ revision: number; repeated: AppendResult | null; idTaken: boolean }> {
    const [row] = await this.run<{
      revision: number;
      id_taken: boolean;
      out_revision: number | null;
      out_epoch: number | null;
      out_tx: string | null;
      out_pos: string | null;
    }>(
      `select (select coalesce(max(e.stream_position), -1) from ${streamRows(logTableOf(streamId), '$1')} e)
                as revision,
              (${ID_TAKEN('$2')}) as id_taken, f.*
       from (select 1) as one left join seatlink_find_append($1, $2::uuid[]) as f on true`,
      [streamId, newEvents.map((e) => e.id)],
      `seatlink_refusal_${logTableOf(streamId)}`,
    );
    const repeated =
      row && row.out_revision !== null
        ? {
            nextRevision: row.out_revision,
            position: encodePosition(row.out_epoch!, String(row.out_tx), String(row.out_pos)),
            repeated: true,
          }
        : null;
    return { revision: Number(row?.revision ?? -1), repeated, idTaken: row?.id_taken === true };
  }

  readonly logInDatabase = true;

  appendedInDatabase(types: readonly string[]): void {
    this.appended(new Set(types));
  }

  async recordAtPositions(events: readonly PositionedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map((e) => ({
      stream_id: e.streamId,
      position: e.revision,
      id: e.id,
      type: e.type,
      data: e.data ?? {},
      metadata: storedMetadata(e.metadata),
    }));
    try {
      await this.run(RECORD_AT_POSITIONS_SQL, [JSON.stringify(rows)], 'seatlink_record_at_positions');
    } catch (err) {
      const code = errorCode(err);
      if (code && INVALID_DATA_CODES.has(code))
        throw new InvalidEventDataError(events[0]!.streamId, driverMessage(err));
      throw err;
    }
    this.appended(typesOf(events));
  }

  async readStream(streamId: string): Promise<ReadStreamResult> {
    const rows = await this.run<EventRow>(
      `select ${COLUMNS} from ${streamRows(logTableOf(streamId), '$1')} e order by stream_position`,
      [streamId],
      `seatlink_read_stream_${logTableOf(streamId)}`,
    );
    const events = rows.map(toRecorded);
    return { revision: events.length - 1, events };
  }

  async readAll(after: string | null, limit: number): Promise<RecordedEvent[]> {
    const rows = await this.run<EventRow>(
      `select ${COLUMNS} from seatlink_read_all($1, $2::bigint, $3::bigint, $4)`,
      readAllParams(after, limit),
      'seatlink_read_all',
    );
    return rows.map(toRecorded);
  }

  async readFeedFor(after: string | null, limit: number, types: readonly string[]): Promise<FeedPage> {
    // Only the reader's events are read, each type's from its own index; a last row of another type (data left out)
    // is the end of what is readable now, which the reader moves on to.
    const wanted = new Set(types);
    const rows = await this.run<EventRow>(
      `select epoch, transaction_id::text as tx, global_position::text as pos, stream_id, stream_position, event_id,
              type, data, metadata, created_at
       from seatlink_read_feed_for($1, $2::bigint, $3::bigint, $4, $5::text[])`,
      [...readAllParams(after, limit), [...wanted]],
      'seatlink_read_feed_for',
    );
    const last = rows.at(-1);
    const events = rows.filter((r) => wanted.has(r.type)).map(toRecorded);
    return {
      events,
      more: events.length === limit,
      last: last ? encodePosition(last.epoch, String(last.tx), String(last.pos)) : null,
    };
  }

  async applyInDatabase(
    fn: string,
    subscription: string,
    after: string | null,
    limit: number,
  ): Promise<InDatabaseStep | null> {
    const [row] = await this.run<{
      o_epoch: number | null;
      o_tx: string | null;
      o_pos: string | null;
      o_applied: number;
      o_more: boolean;
    }>(
      `select o_epoch, o_tx::text as o_tx, o_pos::text as o_pos, o_applied, o_more
       from seatlink_step_in_database($1, $2, $3, $4, $5::bigint, $6::bigint, $7)`,
      [fn, subscription, after, ...readAllParams(after, limit)],
      'seatlink_step_in_database',
    );
    if (!row) return null;
    const last = row.o_epoch === null ? null : encodePosition(row.o_epoch, String(row.o_tx), String(row.o_pos));
    return { last, applied: Number(row.o_applied), more: row.o_more === true };
  }

  async headPosition(): Promise<string | null> {
    const [row] = await this.run<{ epoch: number; tx: string; pos: string }>(
      `select epoch, transaction_id::text as tx, global_position::text as pos from events
       order by epoch desc, transaction_id desc, global_position desc limit 1`,
      [],
      'seatlink_head',
    );
    return row ? encodePosition(row.epoch, String(row.tx), String(row.pos)) : null;
  }

  async onAppended(onAppended: (types: ReadonlySet<string> | null) => void): Promise<() => Promise<void>> {
    if (this.scope) return this.scope.root.onAppended(onAppended);
    this.localListeners.add(onAppended);
    listenersOf(this.database).add(onAppended);
    // A NOTIFY sent from this database's own connections comes from an append here, which woke it already.
    const unlisten = await this.database.listen(CHANNEL, (payload, fromHere) => {
      if (!fromHere) onAppended(typesFromPayload(payload));
    });
    return async () => {
      this.localListeners.delete(onAppended);
      listenersOf(this.database).delete(onAppended);
      await unlisten();
    };
  }

  /**
   * Wakes this process's listeners on the database at once, and other processes through one NOTIFY per short window: a NOTIFY inside
   * every append would serialise all commits of the cluster on the notification queue's lock. A NOTIFY names the
   * types appended in its window, so that subscriptions reading none of them need not look at once.
   */
  private appended(types: ReadonlySet<string>) {
    if (this.scope) {
      const root = this.scope.root;
      this.scope.afterCommit(() => root.appended(types));
      return;
    }
    for (const listener of listenersOf(this.database)) listener(types);
    // The first append after a quiet spell notifies at once; the appends that follow it within the window share one
    // NOTIFY at its end.
    if (this.notifyTimer) {
      this.notifyPending ??= new Set();
      for (const type of types) this.notifyPending.add(type);
      return;
    }
    this.notify(types);
  }

  private notify(types: ReadonlySet<string>) {
    const payload = payloadOf(types);
    // A lost NOTIFY costs latency only: subscribers also poll.
    this.database
      .query(`select pg_notify('${CHANNEL}', $1)`, [payload.length > MAX_NOTIFY_PAYLOAD ? '' : payload])
      .catch(() => undefined);
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = null;
      const pending = this.notifyPending;
      this.notifyPending = undefined;
      if (pending !== undefined) this.notify(pending);
    }, NOTIFY_WINDOW_MS).unref();
  }

  comparePositions(a: string, b: string): number {
    const x = decodePosition(a);
    const y = decodePosition(b);
    for (let i = 0; i < 3; i++) {
      if (x[i]! !== y[i]!) return x[i]! < y[i]! ? -1 : 1;
    }
    return 0;
  }

  async close() {
    // The database is owned by whoever opened it; a store bound to a transaction has nothing of its own.
    if (this.scope) return;
    for (const listener of this.localListeners) listenersOf(this.database).delete(listener);
    this.localListeners.clear();
    if (this.notifyTimer) clearTimeout(this.notifyTimer);
    this.notifyTimer = null;
    this.notifyPending = undefined;
  }
}
