/**
 * The event store port. Adapters: SQL (PostgreSQL and PGlite) and KurrentDB.
 * Every adapter passes the same contract suite (event-store.contract.ts).
 */

export interface EventMetadata {
  /** Who caused the event (a user id), when known. */
  actorId?: string;
  /** The caller's IP address, when the command came over HTTP. */
  ip?: string;
  /** True when the event is part of a bulk action. */
  bulk?: boolean;
  /** Id of the command that produced the event. */
  commandId?: string;
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
}

export interface ReadStreamResult {
  /** Revision of the last event, or -1 when the stream does not exist. */
  revision: number;
  events: RecordedEvent[];
}

export interface EventStore {
  appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult>;

  readStream(streamId: string): Promise<ReadStreamResult>;

  /**
   * Reads the global feed after `after` (null: from the start), at most `limit` events.
   * Gap-safe: an event that becomes visible later never has a position before one already returned.
   */
  readAll(after: string | null, limit: number): Promise<RecordedEvent[]>;

  /**
   * Position of the newest committed event (null: none). `readAll` may not reach it yet while an older transaction
   * is still open; a reader that must see everything up to now waits until it does.
   */
  headPosition(): Promise<string | null>;

  /** Calls `onAppended` (possibly coalesced) whenever new events may be readable. */
  onAppended(onAppended: () => void): Promise<() => Promise<void>>;

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

export function matchesExpected(expected: ExpectedRevision, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === -1;
  if (expected === 'stream_exists') return actual >= 0;
  return expected === actual;
}

export const EVENT_STORE = Symbol('EventStore');
