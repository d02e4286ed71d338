/**
 * The event store port. Adapters: SQL (PostgreSQL) and KurrentDB.
 * Every adapter passes the same contract suite (event-store.contract.ts).
 */
import type { Tx } from '../db/database.js';
import { currentApiKey } from '../logging/app-logger.js';

export interface EventMetadata {
  /** Who caused the event (a user id), when known. */
  actorId?: string;
  /** The caller's IP address, when the command came over HTTP. */
  ip?: string;
  /** True when the event is part of a bulk action. */
  bulk?: boolean;
  /** Id of the command that produced the event. */
  commandId?: string;
  /** The name of the API key the request that caused it was made with, and its id (names need not differ). */
  apiKey?: string;
  apiKeyId?: string;
  [key: string]: unknown;
}

export interface NewEvent {
  /** Caller-supplied id: appending the same ids again is a no-op. */
  id: string;
  type: string;
  data: unknown;
  metadata?: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  streamId: string;
  /** 0-based position of the event within its stream. */
  revision: number;
  /** Opaque position in the global feed; compare with `comparePositions`. */
  position: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  createdAt: Date;
}

/**
 * - a number: the stream's last revision must be exactly this
 * - 'no_stream': the stream must not exist yet
 * - 'stream_exists': the stream must have at least one event
 * - 'any': no check
 */
export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export interface AppendResult {
  /** Revision of the stream's last event after the append. */
  nextRevision: number;
  /** Feed position of the last appended event. */
  position: string;
  /** True when these very events had been appended before (the same ids, as the same append): nothing was written. */
  repeated?: boolean;
}

/** One stream's part of `appendToStreams`. */
export interface StreamAppend {
  streamId: string;
  events: readonly NewEvent[];
  /** Exact: the stream's last revision, or 'no_stream'. */
  expectedRevision: number | 'no_stream';
}

/** What `appendToStreams` wrote to one stream: what an append answers, and the feed position of each of its events. */
export interface StreamAppendResult extends AppendResult {
  positions: string[];
}

export interface ReadStreamResult {
  /** Revision of the last event, or -1 when the stream does not exist. */
  revision: number;
  events: RecordedEvent[];
}

/** An event at a stream position its caller already holds (a counter handed it out). */
export interface PositionedEvent extends NewEvent {
  streamId: string;
  /** 0-based position in the stream. */
  revision: number;
}

/**
 * A page of the feed for a reader of `types`, from the events `readAll` read (at most `limit`; for stores that read
 * the feed whole).
 */
export function feedPageFor(read: readonly RecordedEvent[], limit: number, types: readonly string[]): FeedPage {
  const wanted = new Set(types);
  return {
    events: read.filter((e) => wanted.has(e.type)),
    more: read.length === limit,
    last: read.at(-1)?.position ?? null,
  };
}

/** A page of the feed as a reader of some event types reads it (`readFeedFor`). */
export interface FeedPage {
  /** The reader's events, whole, in feed order (at most the limit asked for). */
  events: RecordedEvent[];
  /** The page stopped at its limit: more may be readable at once. False: this is the end of what is readable now. */
  more: boolean;
  /**
   * Where the reader goes on from: its last event, or a later event of another type when the reader has passed
   * events it does not read. Null: nothing new is readable.
   */
  last: string | null;
}

/** What a projection's database function did with one page (`EventStore.applyInDatabase`). */
export interface InDatabaseStep {
  /** Where it read up to; null: the page holds events it leaves to the process, which applies this page. */
  last: string | null;
  applied: number;
  more: boolean;
}

export interface EventStore {
  appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult>;

  readStream(streamId: string): Promise<ReadStreamResult>;

  /**
   * Appends to several streams at once (one statement on SQL), each stream's events after its expected revision, and
   * answers what each got, in order. All or nothing: when any stream moved (or an event id is taken), nothing is
   * written and it throws WrongExpectedRevisionError (or DuplicateEventIdError) — on SQL. A store that cannot write
   * several streams atomically (KurrentDB) appends them one after another and may stop part way; the event ids, which
   * derive from the commands, make the retry append nothing twice. A stream appears at most once.
   */
  appendToStreams(appends: readonly StreamAppend[]): Promise<StreamAppendResult[]>;

  /** Several streams, as `readStream` reads each (one round trip on SQL); a stream that does not exist has revision -1. */
  readStreams(streamIds: readonly string[]): Promise<Map<string, ReadStreamResult>>;

  /**
   * Records facts whose positions were handed out by an atomic counter elsewhere (the n-th counted click of a link is
   * position n - 1 of its stream): many streams, one statement, no read and no decision. A position or event id that
   * is already taken is left as it is, so a batch written twice writes nothing twice. A position may be written before
   * the ones under it (another process's batch may land first); readers see the stream in position order.
   */
  recordAtPositions(events: readonly PositionedEvent[]): Promise<void>;

  /**
   * Whether the log is the `events` table of the read side's own database (the SQL adapter): a function of the
   * product's may then append to it in the transaction of another write (a claim's click events, with the count that
   * admits them). False for a store kept elsewhere (KurrentDB), to which such events go through an outbox.
   */
  readonly logInDatabase: boolean;

  /**
   * Wakes this store's listeners, in this process and the others, for events of these types that a database function
   * appended (`logInDatabase`); nothing for a store kept elsewhere, whose appends wake its listeners themselves.
   */
  appendedInDatabase(types: readonly string[]): void;

  /**
   * Reads the global feed after `after` (null: from the start), at most `limit` events.
   * Gap-safe: an event that becomes visible later never has a position before one already returned.
   */
  readAll(after: string | null, limit: number): Promise<RecordedEvent[]>;

  /**
   * Reads the feed as `readAll` does, for a reader of some event types: only its events come back (a reader of
   * sign-ups passing a million clicks receives none of them), with where the page ended and whether more follow.
   */
  readFeedFor(after: string | null, limit: number, types: readonly string[]): Promise<FeedPage>;

  /**
   * Position of the newest committed event (null: none). `readAll` may not reach it yet while an older transaction
   * is still open; a reader that must see everything up to now waits until it does.
   */
  headPosition(): Promise<string | null>;

  /**
   * Calls `onAppended` (possibly coalesced) whenever new events may be readable, with the types of the events appended
   * when the store knows them (null: any type may have been appended).
   */
  onAppended(onAppended: (types: ReadonlySet<string> | null) => void): Promise<() => Promise<void>>;

  /**
   * This store as seen from inside an open transaction of the read side's database (a reaction's, which moves its
   * checkpoint): with the SQL adapter, reads and appends join that transaction and commit with the checkpoint, and an
   * embedded single-connection database is never asked for a second connection while the transaction holds it. A
   * store with a server of its own (KurrentDB) answers itself. `afterCommit` runs work once the transaction commits.
   */
  withinTransaction(tx: Tx, afterCommit: (work: () => void) => void): EventStore;

  /**
   * Only where the events are in the read side's own database (the SQL adapter): one step of a subscription whose
   * projection is a database function (`Subscription.inDatabase`), in one statement: the function reads the feed after
   * `after` (at most `limit` of its events) and applies them without their being read into the process, and the
   * subscription's checkpoint moves from `after` to where it read (a compare-and-set: when it was moved meanwhile,
   * nothing is written and the call fails with SQLSTATE `SL001`). Answers where the function read up to (null: it left
   * this page to the process, and nothing moved), how many events it applied and whether more may be readable at once;
   * null when nothing new is readable.
   */
  applyInDatabase?(
    fn: string,
    subscription: string,
    after: string | null,
    limit: number,
  ): Promise<InDatabaseStep | null>;

  /** Orders two feed positions: negative, zero or positive. */
  comparePositions(a: string, b: string): number;

  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number,
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${actual}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** Some of the event ids were appended before, but not as this same append. */
export class DuplicateEventIdError extends Error {
  constructor(readonly streamId: string) {
    super(`Stream ${streamId}: some event ids were already appended elsewhere`);
    this.name = 'DuplicateEventIdError';
  }
}

/** An event the store cannot keep (data PostgreSQL refuses, such as a NUL character in a string): nothing written. */
export class InvalidEventDataError extends Error {
  constructor(
    readonly streamId: string,
    readonly reason: string,
  ) {
    super(`Stream ${streamId}: the event data cannot be stored (${reason})`);
    this.name = 'InvalidEventDataError';
  }
}

export function matchesExpected(expected: ExpectedRevision, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === -1;
  if (expected === 'stream_exists') return actual >= 0;
  return expected === actual;
}

export const EVENT_STORE = Symbol('EventStore');

/** The latest of some feed positions (null ones left out), or null when there is none. */
export function latestPosition(
  store: Pick<EventStore, 'comparePositions'>,
  positions: ReadonlyArray<string | null>,
): string | null {
  return positions.reduce<string | null>((p, q) => (q && (!p || store.comparePositions(q, p) > 0) ? q : p), null);
}

/**
 * An event's metadata as it is stored: what its command gave, and the API key of the request appending it (every
 * event a call made with a key causes says so: the audit log names the key).
 */
export function storedMetadata(metadata: EventMetadata | undefined): EventMetadata {
  const key = currentApiKey();
  return key && !metadata?.apiKey ? { ...metadata, apiKey: key.name, apiKeyId: key.id } : (metadata ?? {});
}

/**
 * Streams named with this prefix (a link's clicks) are kept apart in the SQL event log, in partitions by month
 * (docs/architecture.md, "The event log's partitions"); every other stream is in one partition of its own.
 */
export const CLAIMS_STREAM_PREFIX = 'link-clicks-';
