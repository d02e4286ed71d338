import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendResult as KurrentAppendResult,
  BACKWARDS,
  END,
  excludeSystemEvents,
  type JSONType,
  jsonEvent,
  KurrentDBClient,
  NO_STREAM,
  type Position,
  type ReadStreamOptions,
  type RecordedEvent as KurrentRecordedEvent,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import {
  type AppendResult,
  DuplicateEventIdError,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type FeedPage,
  feedPageFor,
  matchesExpected,
  type NewEvent,
  type PositionedEvent,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamAppend,
  type StreamAppendResult,
  WrongExpectedRevisionError,
  storedMetadata,
} from './event-store.port.js';

/** What servers send in place of a position they do not know (u64::MAX, i.e. -1). */
const UNKNOWN_POSITION = 2n ** 64n - 1n;

/** Appends with 'any' or 'stream_exists' retry this often when other writers keep moving the stream. */
const MAX_APPEND_ATTEMPTS = 20;

/** Page size of the backwards read that finds the head (normally the first event it returns is the answer). */
const HEAD_PAGE = 32;

const RESUBSCRIBE_MIN_MS = 500;
const RESUBSCRIBE_MAX_MS = 30_000;

/** Feed positions are `<commit>:<prepare>` of the event in KurrentDB's log, compared as a pair of integers. */
function encodePosition(position: Position): string {
  return `${position.commit}:${position.prepare}`;
}

function decodePosition(position: string): Position {
  const [commit, prepare] = position.split(':');
  if (commit === undefined || prepare === undefined || !/^\d+$/.test(commit) || !/^\d+$/.test(prepare)) {
    throw new Error(`Not a feed position: ${position}`);
  }
  return { commit: BigInt(commit), prepare: BigInt(prepare) };
}

function compare(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  return a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;
}

function isKnown(position: Position | undefined): position is Position {
  return (
    position !== undefined &&
    position.commit >= 0n &&
    position.prepare >= 0n &&
    position.commit < UNKNOWN_POSITION &&
    position.prepare < UNKNOWN_POSITION
  );
}

function positionOf(event: KurrentRecordedEvent): string {
  if (!isKnown(event.position)) {
    // Stream reads carry the log position since EventStoreDB 22.6; every KurrentDB release has it.
    throw new Error(
      `KurrentDB gave no log position for ${event.streamId}@${event.revision}: use KurrentDB (or EventStoreDB 22.6+)`,
    );
  }
  return encodePosition(event.position);
}

function toMetadata(metadata: unknown): EventMetadata {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata) || metadata instanceof Uint8Array) {
    return {};
  }
  return metadata as EventMetadata;
}

function toRecorded(event: KurrentRecordedEvent): RecordedEvent {
  return {
    id: event.id,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: positionOf(event),
    type: event.type,
    data: event.data,
    metadata: toMetadata(event.metadata),
    createdAt: event.created,
  };
}

const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The result of an earlier identical append found in the stream's history, or null when none of the ids are there.
 * The same ids anywhere else in the stream, or only some of them, is a DuplicateEventIdError (as in the SQL adapter).
 */
function findRepeatedAppend(
  streamId: string,
  history: readonly KurrentRecordedEvent[],
  newEvents: readonly NewEvent[],
): AppendResult | null {
  const ids = newEvents.map((e) => e.id.toLowerCase());
  const wanted = new Set(ids);
  const found = history.filter((e) => wanted.has(e.id.toLowerCase()));
  if (found.length === 0) return null;
  const first = Number(found[0]!.revision);
  const sameAppend =
    found.length === ids.length && found.every((e, i) => sameId(e.id, ids[i]!) && Number(e.revision) === first + i);
  if (!sameAppend) throw new DuplicateEventIdError(streamId);
  const last = found[found.length - 1]!;
  return { nextRevision: Number(last.revision), position: positionOf(last) };
}

/**
 * The event store on KurrentDB (@kurrent/kurrentdb-client). Events are JSON; our metadata is the event's metadata
 * JSON. System events ($-prefixed types: stream metadata, links, statistics) never reach the feed.
 *
 * - Optimistic concurrency: every append reads the stream first, answers a repeated append (the same event ids) with
 *   the earlier result, checks the caller's expected revision itself, and then appends with the exact revision it
 *   read. KurrentDB only deduplicates a repeat sent with the same expected revision (and only best-effort for 'any');
 *   pinning the revision gives the port's semantics: the same ids appended again are a no-op whatever the caller
 *   expected, and no other writer can slip in between the check and the append. A conflict re-reads and decides
 *   again: a stale number or 'no_stream' becomes a WrongExpectedRevisionError, 'any'/'stream_exists' retries.
 *   Event ids are unique per stream here (KurrentDB has no global id index); the command handlers derive ids from
 *   the command id and the stream id, so ids never repeat across streams.
 * - Gap safety: KurrentDB has one writer appending to one log, and $all is read in log order up to the committed
 *   checkpoint, so an event never becomes visible behind a position a reader has already passed. The head is the
 *   newest non-system event of $all (read backwards), which `readAll` reaches at once.
 * - Positions: every event our appends write commits itself, so its position in $all and in a stream read is
 *   (its log position, its log position); the position of an append is that of its last event, read back when the
 *   append's answer does not name it exactly (several events, or a repeat the server deduplicated).
 *
 * The store owns its client: `close()` disposes it.
 */
export class KurrentDbEventStore implements EventStore {
  private readonly client: KurrentDBClient;
  private readonly listeners = new Set<() => Promise<void>>();

  /** A connection string (`kurrentdb://host:2113?tls=false` for an insecure single node) or a client to own. */
  constructor(connection: string | KurrentDBClient) {
    this.client = typeof connection === 'string' ? KurrentDBClient.connectionString(connection) : connection;
  }

  /**
   * KurrentDB keeps a stream gapless and cannot take a position out of turn: each fact is appended after whatever the
   * stream holds, and a repeat is known by its event id.
   */
  /** KurrentDB is a server of its own: nothing appends to it from inside the read side's database. */
  readonly logInDatabase = false;

  appendedInDatabase(): void {}

  async recordAtPositions(events: readonly PositionedEvent[]): Promise<void> {
    for (const { streamId, revision: _revision, ...event } of events) {
      await this.appendToStream(streamId, [event], { expectedRevision: 'any' });
    }
  }

  async appendToStream(
    streamId: string,
    newEvents: readonly NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    if (newEvents.length === 0) throw new Error('Nothing to append');
    const proposed = newEvents.map((e) =>
      jsonEvent({
        id: e.id,
        type: e.type,
        data: (e.data ?? {}) as JSONType,
        metadata: storedMetadata(e.metadata),
      }),
    );
    for (let attempt = 1; ; attempt++) {
      const history = await this.readEvents(streamId);
      const repeated = findRepeatedAppend(streamId, history, newEvents);
      if (repeated) return repeated;
      const current = history.length === 0 ? -1 : Number(history[history.length - 1]!.revision);
      if (!matchesExpected(expected, current)) {
        throw new WrongExpectedRevisionError(streamId, expected, current);
      }
      let result: KurrentAppendResult;
      try {
        result = await this.client.appendToStream(streamId, proposed, {
          streamState: current === -1 ? NO_STREAM : BigInt(current),
        });
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError)) throw err;
        const actual = err.actualState === NO_STREAM ? -1 : Number(err.actualState);
        if (attempt >= MAX_APPEND_ATTEMPTS) throw new WrongExpectedRevisionError(streamId, expected, actual);
        continue;
      }
      if (!result.success) {
        // Only when the client was built with throwOnAppendFailure=false: the same conflict, reported as a value.
        if (attempt >= MAX_APPEND_ATTEMPTS) {
          throw new WrongExpectedRevisionError(streamId, expected, Number(result.nextExpectedRevision));
        }
        continue;
      }
      return this.toAppendResult(streamId, newEvents.length, result);
    }
  }

  /** One stream after another (KurrentDB writes one stream atomically, not several): a retry appends nothing twice. */
  async appendToStreams(appends: readonly StreamAppend[]): Promise<StreamAppendResult[]> {
    const results: StreamAppendResult[] = [];
    for (const { streamId, events, expectedRevision } of appends) {
      const result = await this.appendToStream(streamId, events, { expectedRevision });
      const ids = new Set(events.map((e) => e.id));
      const positions = (await this.readStream(streamId)).events.filter((e) => ids.has(e.id)).map((e) => e.position);
      results.push({ ...result, positions });
    }
    return results;
  }

  private async toAppendResult(streamId: string, count: number, result: KurrentAppendResult): Promise<AppendResult> {
    const nextRevision = Number(result.nextExpectedRevision);
    const answered = result.position;
    // One self-committed event: the answer is its (log position, log position).
    if (count === 1 && isKnown(answered) && answered.commit === answered.prepare) {
      return { nextRevision, position: encodePosition(answered) };
    }
    const [last] = await this.readEvents(streamId, { fromRevision: BigInt(nextRevision), maxCount: 1 });
    if (!last || Number(last.revision) !== nextRevision) {
      throw new Error(`Stream ${streamId}: appended revision ${nextRevision} could not be read back`);
    }
    return { nextRevision, position: positionOf(last) };
  }

  /** The stream's events in order; none when the stream does not exist. */
  private async readEvents(streamId: string, options: ReadStreamOptions = {}): Promise<KurrentRecordedEvent[]> {
    const events: KurrentRecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, options)) {
        if (resolved.event) events.push(resolved.event);
      }
    } catch (err) {
      if (err instanceof StreamNotFoundError) return [];
      throw err;
    }
    return events;
  }

  async readStream(streamId: string): Promise<ReadStreamResult> {
    const events = (await this.readEvents(streamId)).map(toRecorded);
    return { revision: events.length === 0 ? -1 : events[events.length - 1]!.revision, events };
  }

  async readStreams(streamIds: readonly string[]): Promise<Map<string, ReadStreamResult>> {
    const read = new Map<string, ReadStreamResult>();
    for (const id of new Set(streamIds)) read.set(id, await this.readStream(id));
    return read;
  }

  async readAll(after: string | null, limit: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    if (limit <= 0) return out;
    // Reading $all from a position includes the event at that position: ask for one more and skip it.
    let from = after === null ? null : decodePosition(after);
    for (;;) {
      const wanted = limit - out.length + 1;
      let seen = 0;
      let last: Position | null = null;
      for await (const resolved of this.client.readAll({
        fromPosition: from ?? START,
        maxCount: wanted,
        filter: excludeSystemEvents(),
      })) {
        seen++;
        const event = resolved.event;
        if (!event) continue;
        last = event.position;
        if (from !== null && compare(event.position, from) <= 0) continue;
        // The server filter already drops system events; kept so a page can never carry one.
        if (event.type.startsWith('$')) continue;
        out.push(toRecorded(event));
        if (out.length === limit) return out;
      }
      // A short page is the end of the feed; a full one that held skipped events goes on after them.
      if (seen < wanted || last === null) return out;
      from = last;
    }
  }

  async readFeedFor(after: string | null, limit: number, types: readonly string[]): Promise<FeedPage> {
    return feedPageFor(await this.readAll(after, limit), limit, types);
  }

  async headPosition(): Promise<string | null> {
    // The newest event readAll would return: $all backwards from its end, with the same system-event filter.
    let from: Position | typeof END = END;
    for (;;) {
      let seen = 0;
      let last: Position | null = null;
      const page: AsyncIterable<AllStreamResolvedEvent> = this.client.readAll({
        direction: BACKWARDS,
        fromPosition: from,
        maxCount: HEAD_PAGE,
        filter: excludeSystemEvents(),
      });
      for await (const resolved of page) {
        seen++;
        const event = resolved.event;
        if (!event) continue;
        last = event.position;
        if (!event.type.startsWith('$')) return encodePosition(event.position);
      }
      if (seen < HEAD_PAGE || last === null) return null;
      from = last;
    }
  }

  async onAppended(onAppended: (types: ReadonlySet<string> | null) => void): Promise<() => Promise<void>> {
    let stopped = false;
    let current: AllStreamSubscription | null = null;
    let timer: NodeJS.Timeout | null = null;
    let delay = RESUBSCRIBE_MIN_MS;

    const wake = () => {
      try {
        onAppended(null);
      } catch {
        // A listener's failure must not end the subscription.
      }
    };

    /** Subscribes from the end of $all; resolves once the server has confirmed the subscription is live. */
    const subscribe = () =>
      new Promise<void>((resolve, reject) => {
        const subscription = this.client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
        current = subscription;
        let live = false;
        let dropped = false;
        const drop = (err?: Error) => {
          if (dropped) return;
          dropped = true;
          if (!live) {
            reject(err ?? new Error('KurrentDB subscription to $all ended before it was confirmed'));
            return;
          }
          if (!stopped) schedule();
        };
        subscription.on('confirmation', () => {
          live = true;
          delay = RESUBSCRIBE_MIN_MS;
          resolve();
        });
        subscription.on('data', wake);
        subscription.on('error', (err) => drop(err));
        subscription.on('end', () => drop());
      });

    /** After a dropped subscription: subscribe again with backoff, then wake the reader for whatever it missed. */
    const schedule = () => {
      timer = setTimeout(() => {
        timer = null;
        if (stopped) return;
        subscribe().then(
          async () => {
            if (stopped) await current?.unsubscribe();
            else wake();
          },
          () => {
            delay = Math.min(delay * 2, RESUBSCRIBE_MAX_MS);
            if (!stopped) schedule();
          },
        );
      }, delay);
    };

    await subscribe();
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      this.listeners.delete(stop);
      if (timer) clearTimeout(timer);
      await current?.unsubscribe();
    };
    this.listeners.add(stop);
    return stop;
  }

  comparePositions(a: string, b: string): number {
    return compare(decodePosition(a), decodePosition(b));
  }

  /** KurrentDB is a server of its own: its appends cannot join a transaction of the read side's database. */
  withinTransaction(): EventStore {
    return this;
  }

  async close() {
    await Promise.all([...this.listeners].map((stop) => stop()));
    await this.client.dispose();
  }
}
