import {
  DuplicateEventIdError,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamAppend,
  type StreamAppendResult,
  WrongExpectedRevisionError,
  storedMetadata,
} from './event-store.port.js';

// Several streams in one statement, for the SQL event store: a batch of commands (a reaction's, one per event it
// reads) reads its streams in one round trip and appends to all of them in one more, instead of two per command.

/**
 * Appends to several streams in one statement, all or nothing, as APPEND_SQL does for one:
 *   $1 the appends as a JSON array of { s: stream id, e: expected revision (-1: no stream), events: [...] }.
 * Each stream's events go in at the positions after its expected revision, which must be its last event (checked as
 * APPEND_SQL checks it), into `table`: the partition of all the streams (logTableOf) when they share one, else the
 * partitioned `events`. When no event goes in (a position or an event id taken), there is no row; when only some
 * could (a stream moved, another append took a position), the statement fails with 40001
 * (seatlink_refuse_partial_append) and writes nothing.
 */
export const appendToStreamsSql = (table: 'events' | 'events_main' | 'events_claims') => `
  with batch as (
    select x.a ->> 's' as stream_id, (x.a ->> 'e')::integer + y.i::integer as stream_position,
           (y.ev ->> 'id')::uuid as event_id, y.ev ->> 'type' as type, coalesce(y.ev -> 'data', '{}'::jsonb) as data,
           coalesce(y.ev -> 'metadata', '{}'::jsonb) as metadata, (x.a ->> 'e')::integer as expected, x.k, y.i
    from jsonb_array_elements($1::jsonb) with ordinality as x(a, k)
    cross join lateral jsonb_array_elements(x.a -> 'events') with ordinality as y(ev, i)
  ), inserted as (
    insert into ${table} (epoch, stream_id, stream_position, event_id, type, data, metadata)
    select (select m.epoch from event_store_meta m where m.id = 1), b.stream_id, b.stream_position, b.event_id,
           b.type, b.data, b.metadata
    from batch b
    where ${
      table === 'events_main'
        ? `b.expected = -1
       or exists (select 1 from events_main e where e.stream_id = b.stream_id and e.stream_position = b.expected)`
        : // No one key spans the claims' months and the compacted events: the expected revision must be the last.
          `b.expected = (select coalesce(max(e.stream_position), -1)
                         from (select stream_position from ${table} where stream_id = b.stream_id
                               union all
                               select c.last_position from events_compacted c where c.stream_id = b.stream_id) e)`
    }
    order by b.k, b.i
    on conflict do nothing
    returning stream_id, stream_position, epoch, transaction_id, global_position
  )
  select i.stream_id, i.stream_position, i.epoch, i.transaction_id::text as tx, i.global_position::text as pos,
         case when (select count(*) from inserted) < (select count(*) from batch)
              then seatlink_refuse_partial_append(i.stream_id) end as refused
  from inserted i`;

/** The rows of the streams $1 (their events compacted included, as they were). */
const STREAMS_ROWS = `(select * from events where stream_id = any($1::text[])
  union all select * from seatlink_compacted_streams($1::text[]))`;

/** Each stream's revision now (streams without events left out): why an append to several streams was refused. */
export const REVISIONS_SQL = `
  select stream_id, max(stream_position)::integer as revision from ${STREAMS_ROWS} e group by stream_id`;

/** Several streams' events, in stream order. */
export const READ_STREAMS_SQL = (columns: string) =>
  `select ${columns} from ${STREAMS_ROWS} e order by stream_id, stream_position`;

/** Streams per READ_STREAMS_SQL statement. */
export const READ_STREAMS_CHUNK = 1000;

export interface StreamsAppendRow {
  stream_id: string;
  stream_position: number;
  epoch: number;
  tx: string;
  pos: string;
}

/** The parameter of APPEND_TO_STREAMS_SQL; refuses a stream named twice and a stream with nothing to append. */
export function appendToStreamsParam(appends: readonly StreamAppend[]): string {
  const seen = new Set<string>();
  for (const a of appends) {
    if (seen.has(a.streamId)) throw new Error(`Stream ${a.streamId} appears twice in one append`);
    if (a.events.length === 0) throw new Error(`Nothing to append to ${a.streamId}`);
    seen.add(a.streamId);
  }
  return JSON.stringify(
    appends.map((a) => ({
      s: a.streamId,
      e: a.expectedRevision === 'no_stream' ? -1 : a.expectedRevision,
      events: a.events.map((e) => ({
        id: e.id,
        type: e.type,
        data: e.data ?? {},
        metadata: storedMetadata(e.metadata),
      })),
    })),
  );
}

/** What each stream got, from the rows the statement inserted. */
export function streamAppendResults(
  appends: readonly StreamAppend[],
  rows: readonly StreamsAppendRow[],
  encode: (epoch: number, tx: string, pos: string) => string,
): StreamAppendResult[] {
  const byStream = new Map<string, StreamsAppendRow[]>();
  for (const row of rows) {
    const list = byStream.get(row.stream_id);
    if (list) list.push(row);
    else byStream.set(row.stream_id, [row]);
  }
  return appends.map(({ streamId }) => {
    const mine = (byStream.get(streamId) ?? []).sort((a, b) => a.stream_position - b.stream_position);
    const positions = mine.map((r) => encode(r.epoch, String(r.tx), String(r.pos)));
    return { nextRevision: Number(mine.at(-1)!.stream_position), position: positions.at(-1)!, positions };
  });
}

/**
 * The error of a refused append to several streams, from each stream's revision now: the first stream that moved, or
 * a taken event id when none did.
 */
export function streamsRefusal(
  appends: readonly StreamAppend[],
  revisions: ReadonlyArray<{ stream_id: string; revision: number }>,
  idTaken: boolean,
): Error {
  const now = new Map(revisions.map((r) => [r.stream_id, Number(r.revision)]));
  for (const { streamId, expectedRevision } of appends) {
    const actual = now.get(streamId) ?? -1;
    if (actual !== (expectedRevision === 'no_stream' ? -1 : expectedRevision)) {
      return new WrongExpectedRevisionError(streamId, expectedRevision, actual);
    }
  }
  if (idTaken) return new DuplicateEventIdError(appends[0]!.streamId);
  // Moved and back is impossible (streams only grow): another append was under way and has since been undone.
  const first = appends[0]!;
  return new WrongExpectedRevisionError(first.streamId, first.expectedRevision, now.get(first.streamId) ?? -1);
}

/** The streams read, each in order; the ones without events as empty streams. */
export function groupStreams(
  streamIds: readonly string[],
  events: readonly RecordedEvent[],
): Map<string, ReadStreamResult> {
  const read = new Map<string, ReadStreamResult>();
  for (const id of streamIds) read.set(id, { revision: -1, events: [] });
  for (const event of events) read.get(event.streamId)?.events.push(event);
  // As readStream counts it: the stream's events, in position order.
  for (const stream of read.values()) stream.revision = stream.events.length - 1;
  return read;
}
