import { inArray, sql } from 'drizzle-orm';
import type { Database, Tx } from '../db/database.js';
import { queryRows } from '../db/database.js';
import { events as eventsTable } from '../db/schema.js';
import {
  type AppendResult,
  DuplicateEventIdError,
  type EventStore,
  type ExpectedRevision,
  matchesExpected,
  type NewEvent,
  type ReadStreamResult,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from './event-store.port.js';

const CHANNEL = 'seatlink_events';

interface EventRow {
  position_text: string;
  transaction_text: string;
  stream_id: string;
  stream_position: number;
  event_id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  created_at: Date | string;
}

/** Feed positions are `<transaction id>:<global position>`, compared as a pair of integers. */
function encodePosition(transactionId: string, globalPosition: string): string {
  return `${transactionId}:${globalPosition}`;
}

function decodePosition(position: string): [bigint, bigint] {
  const [tx, pos] = position.split(':');
  if (tx === undefined || pos === undefined || !/^\d+$/.test(tx) || !/^\d+$/.test(pos)) {
    throw new Error(`Not a feed position: ${position}`);
  }
  return [BigInt(tx), BigInt(pos)];
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: Number(row.stream_position),
    position: encodePosition(row.transaction_text, row.position_text),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    createdAt: new Date(row.created_at),
  };
}

// The text copies get names of their own: ORDER BY would otherwise sort by the text column of the same name.
const SELECT_EVENT = sql`select global_position::text as position_text, transaction_id::text as transaction_text,
  stream_id, stream_position, event_id, type, data, metadata, created_at from events`;

/**
 * The event store on PostgreSQL or PGlite.
 *
 * Gap safety: a bigserial is taken when a row is inserted, not when its transaction commits, so a reader that
 * orders by it could pass a position whose transaction commits later. The feed is therefore ordered by
 * (transaction id, position) and only shows transactions older than the oldest one still running
 * (`pg_snapshot_xmin(pg_current_snapshot())`), the way Marten and Emmett do it.
 */
export class SqlEventStore implements EventStore {
  constructor(private readonly database: Database) {}

  async appendToStream(
    streamId: string,
    newEvents: readonly NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    if (newEvents.length === 0) throw new Error('Nothing to append');
    return this.database.db.transaction(async (tx) => {
      const current = await this.lockStream(tx, streamId, expected);
      const repeated = await this.findRepeatedAppend(tx, streamId, newEvents);
      if (repeated) return repeated;
      if (!matchesExpected(expected, current)) {
        throw new WrongExpectedRevisionError(streamId, expected, current);
      }
      const inserted = await tx
        .insert(eventsTable)
        .values(
          newEvents.map((e, i) => ({
            streamId,
            streamPosition: current + 1 + i,
            eventId: e.id,
            type: e.type,
            data: e.data ?? {},
            metadata: e.metadata ?? {},
          })),
        )
        .returning({
          globalPosition: sql<string>`${eventsTable.globalPosition}::text`,
          transactionId: sql<string>`${eventsTable.transactionId}::text`,
        });
      const nextRevision = current + newEvents.length;
      await tx.execute(sql`update event_streams set revision = ${nextRevision} where stream_id = ${streamId}`);
      // Delivered when the transaction commits.
      await tx.execute(sql`select pg_notify(${CHANNEL}, '')`);
      const last = inserted[inserted.length - 1]!;
      return { nextRevision, position: encodePosition(last.transactionId, last.globalPosition) };
    });
  }

  /** Locks the stream's row (creating it when absent) and answers its current revision (-1: no events). */
  private async lockStream(tx: Tx, streamId: string, expected: ExpectedRevision): Promise<number> {
    for (;;) {
      const [row] = await queryRows<{ revision: number }>(
        tx,
        sql`select revision from event_streams where stream_id = ${streamId} for update`,
      );
      if (row) return Number(row.revision);
      const created = await queryRows<{ stream_id: string }>(
        tx,
        sql`insert into event_streams (stream_id, revision) values (${streamId}, -1)
            on conflict do nothing returning stream_id`,
      );
      if (created.length > 0) return -1;
      // A concurrent append created the stream first and has committed: it now exists.
      if (expected === 'no_stream') {
        const [now] = await queryRows<{ revision: number }>(
          tx,
          sql`select revision from event_streams where stream_id = ${streamId}`,
        );
        throw new WrongExpectedRevisionError(streamId, expected, Number(now?.revision ?? 0));
      }
    }
  }

  /** The result of an earlier identical append, or null when none of the ids were appended before. */
  private async findRepeatedAppend(
    tx: Tx,
    streamId: string,
    newEvents: readonly NewEvent[],
  ): Promise<AppendResult | null> {
    const ids = newEvents.map((e) => e.id);
    const found = await tx
      .select({
        eventId: eventsTable.eventId,
        streamId: eventsTable.streamId,
        streamPosition: eventsTable.streamPosition,
        globalPosition: sql<string>`${eventsTable.globalPosition}::text`,
        transactionId: sql<string>`${eventsTable.transactionId}::text`,
      })
      .from(eventsTable)
      .where(inArray(eventsTable.eventId, ids))
      .orderBy(eventsTable.streamPosition);
    if (found.length === 0) return null;
    const sameAppend =
      found.length === ids.length &&
      found.every(
        (row, i) =>
          row.streamId === streamId && row.eventId === ids[i] && row.streamPosition === found[0]!.streamPosition + i,
      );
    if (!sameAppend) throw new DuplicateEventIdError(streamId);
    const last = found[found.length - 1]!;
    return { nextRevision: last.streamPosition, position: encodePosition(last.transactionId, last.globalPosition) };
  }

  async readStream(streamId: string): Promise<ReadStreamResult> {
    const rows = await queryRows<EventRow>(
      this.database.db,
      sql`${SELECT_EVENT} where stream_id = ${streamId} order by stream_position`,
    );
    const events = rows.map(toRecorded);
    return { revision: events.length - 1, events };
  }

  async readAll(after: string | null, limit: number): Promise<RecordedEvent[]> {
    const [tx, pos] = after ? decodePosition(after) : [0n, 0n];
    const rows = await queryRows<EventRow>(
      this.database.db,
      sql`${SELECT_EVENT}
          where (transaction_id, global_position) > (${tx.toString()}::bigint, ${pos.toString()}::bigint)
            and transaction_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
          order by transaction_id, global_position
          limit ${limit}`,
    );
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<string | null> {
    const [row] = await queryRows<{ tx: string; pos: string }>(
      this.database.db,
      sql`select transaction_id::text as tx, global_position::text as pos from events
          order by transaction_id desc, global_position desc limit 1`,
    );
    return row ? encodePosition(row.tx, row.pos) : null;
  }

  async onAppended(onAppended: () => void) {
    return this.database.listen(CHANNEL, () => onAppended());
  }

  comparePositions(a: string, b: string): number {
    const [atx, apos] = decodePosition(a);
    const [btx, bpos] = decodePosition(b);
    if (atx !== btx) return atx < btx ? -1 : 1;
    return apos === bpos ? 0 : apos < bpos ? -1 : 1;
  }

  async close() {
    // The database is owned by whoever opened it.
  }
}
