import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamAppend,
  WrongExpectedRevisionError,
} from '../../infra/event-store/event-store.port.js';
import { uuidV5In } from '../uuid-v5.js';
import { type Decider, type DomainEvent, fold } from './decider.js';

const eventId = uuidV5In('1b671a64-40d5-491e-99b0-da01ff1f3341');

/** The id of the `index`-th event a command appends to a stream: the same command, the same ids. */
export const commandEventId = (commandId: string, streamId: string, index: number) =>
  eventId(`${commandId}:${streamId}:${index}`);

/**
 * A stream as its caller read it, with the state folded from it: the first decision of a command may be made on it
 * instead of reading the stream again. Its append expects `revision`, so a stream that moved since is refused, read
 * again and decided again, as any stream that moves between a read and its append.
 */
export interface KnownStream<State> {
  revision: number;
  events: readonly RecordedEvent[];
  state: State;
}

export interface HandleOptions<State = unknown> {
  /** Caller, IP, bulk flag: copied onto every event. */
  metadata: EventMetadata;
  /**
   * Id of this command. Event ids derive from it, so handling the same command twice (a retried job, a repeated
   * request with the same Idempotency-Key) appends nothing the second time and answers what the first time decided.
   */
  commandId: string;
  maxAttempts?: number;
  /** The stream as the caller read it: the first attempt decides on it (see KnownStream). */
  known?: KnownStream<State>;
}

export interface HandleResult<State, Event extends DomainEvent> {
  /** The events the command decided (or, for a repeated command, the events it decided the first time). */
  events: Event[];
  /** Position of the last appended event; null when the command produced no events. */
  position: string | null;
  append: AppendResult | null;
  /** The stream's state the decision was made on. */
  state: State;
  /** True when this command had been handled before: nothing new was appended. */
  repeated: boolean;
}

/** A command decided on a stream's state, not yet appended: what `appendDecision` writes. */
export interface Decision<State, Event extends DomainEvent> {
  streamId: string;
  /** The id of the command decided (the one given, or the one chosen from the stream's state). */
  commandId: string;
  /** The stream's revision the decision was made on (-1: no stream yet). */
  revision: number;
  state: State;
  /** The events decided, or, when `earlier` is set, the events this command appended before. */
  events: Event[];
  /** Set when this very command was appended before: its position (nothing is to be appended again). */
  earlier: { position: string } | null;
}

/** A command and its id chosen from the stream's state (a flow whose command depends on what the stream holds). */
export type ChooseCommand<State, Command> = (state: State) => { command: Command; commandId: string };

/**
 * The first half of a command: reads the stream, folds its state and decides. A flow that must do something between
 * deciding and appending (pay for what it decided) appends with `appendDecision` at the revision decided on, so a
 * stream that moved meanwhile refuses the append; everything else uses `handleCommand`, which does both halves.
 */
export async function decideOn<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  streamId: string,
  ...what: [command: Command, commandId: string] | [choose: ChooseCommand<State, Command>]
): Promise<Decision<State, Event>> {
  return decideOnRead(decider, streamId, await store.readStream(streamId), ...what);
}

/** `decideOn` on a stream its caller read (many streams are read in one round trip with `EventStore.readStreams`). */
export function decideOnRead<State, Command, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  streamId: string,
  { revision, events: history }: ReadStreamResult,
  ...what: [command: Command, commandId: string] | [choose: ChooseCommand<State, Command>]
): Decision<State, Event> {
  const state = fold(
    decider,
    history.map((e) => ({ type: e.type, data: e.data }) as Event),
  );
  return decideOnState(decider, streamId, { revision, events: history, state }, ...what);
}

/** `decideOn` on a stream already read and folded. */
function decideOnState<State, Command, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  streamId: string,
  { revision, events: history, state }: KnownStream<State>,
  ...what: [command: Command, commandId: string] | [choose: ChooseCommand<State, Command>]
): Decision<State, Event> {
  const { command, commandId } = what.length === 1 ? what[0](state) : { command: what[0], commandId: what[1] };
  const earlier = earlierOutcome<Event>(history, streamId, commandId);
  if (earlier) {
    return { streamId, commandId, revision, state, events: earlier.events, earlier: { position: earlier.position } };
  }
  return { streamId, commandId, revision, state, events: decider.decide(command, state), earlier: null };
}

/**
 * A command decided on a stream its caller read, when that decision needs no fresh read: one that appends (its append
 * expects the revision read) or that was appended before. Null when it must be decided on a fresh read: it decides
 * nothing, or is refused, on what may be an older state.
 */
function decideOnKnown<State, Command, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  streamId: string,
  known: KnownStream<State>,
  command: Command,
  commandId: string,
): Decision<State, Event> | null {
  try {
    const decision = decideOnState(decider, streamId, known, command, commandId);
    return decision.earlier || decision.events.length > 0 ? decision : null;
  } catch {
    return null;
  }
}

/**
 * The second half: appends a decision's events at the revision it was decided on, with ids derived from the command
 * (the same command, the same ids). Throws WrongExpectedRevisionError when the stream moved since.
 */
export function appendDecision<Event extends DomainEvent>(
  store: EventStore,
  decision: Pick<Decision<unknown, Event>, 'streamId' | 'revision' | 'events'>,
  options: Pick<HandleOptions, 'metadata' | 'commandId'>,
): Promise<AppendResult> {
  const { streamId, events, expectedRevision } = decisionAppend(decision, options);
  return store.appendToStream(streamId, events, { expectedRevision });
}

/**
 * What `appendDecision` appends, as one stream's part of an append to several streams (`EventStore.appendToStreams`):
 * decisions on many streams appended in one statement, each at the revision it was decided on.
 */
export function decisionAppend<Event extends DomainEvent>(
  { streamId, revision, events }: Pick<Decision<unknown, Event>, 'streamId' | 'revision' | 'events'>,
  options: Pick<HandleOptions, 'metadata' | 'commandId'>,
): StreamAppend {
  return {
    streamId,
    events: events.map((e, i) => ({
      id: commandEventId(options.commandId, streamId, i),
      type: e.type,
      data: e.data,
      metadata: { ...options.metadata, commandId: options.commandId },
    })),
    expectedRevision: revision === -1 ? 'no_stream' : revision,
  };
}

/**
 * A command on one stream: decides on the stream's state and appends with the expected revision; on a concurrency
 * conflict it reads again and decides again, so a decision is never made on stale state.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  streamId: string,
  command: Command,
  options: HandleOptions<State>,
): Promise<HandleResult<State, Event>> {
  const maxAttempts = options.maxAttempts ?? 10;
  for (let attempt = 1; ; attempt++) {
    const decision =
      (attempt === 1 && options.known && decideOnKnown(decider, streamId, options.known, command, options.commandId)) ||
      (await decideOn(store, decider, streamId, command, options.commandId));
    const { state, events } = decision;
    if (decision.earlier) return { events, position: decision.earlier.position, append: null, state, repeated: true };
    if (events.length === 0) return { events, position: null, append: null, state, repeated: false };
    try {
      const append = await appendDecision(store, decision, options);
      return { events, position: append.position, append, state, repeated: append.repeated === true };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw err;
      // Someone else appended first: back off a little (with jitter, so racing writers spread out), then decide again.
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(2 * attempt, 20)));
    }
  }
}

/** One command of a batch (`handleCommands`): its stream, its id and what to copy onto its events. */
export interface BatchCommand<Command> {
  streamId: string;
  command: Command;
  commandId: string;
  metadata: EventMetadata;
}

/**
 * Many commands of one aggregate, each decided on its own stream as `handleCommand` decides it, in two round trips for
 * the whole batch: every stream is read at once, the commands are decided in order (a stream's second command on the
 * state its first left), and every stream's new events are appended in one append to several streams, each at the
 * revision it was read at. When any stream moved meanwhile, nothing is appended and the batch is read and decided
 * again. Answers each command's result, in order. A command refused by its decider (a DomainError) fails the batch.
 */
export async function handleCommands<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  commands: readonly BatchCommand<Command>[],
  options: { maxAttempts?: number } = {},
): Promise<HandleResult<State, Event>[]> {
  const maxAttempts = options.maxAttempts ?? 10;
  for (let attempt = 1; ; attempt++) {
    const streams = await store.readStreams([...new Set(commands.map((c) => c.streamId))]);
    const decided = new Map<string, { revision: number; state: State; history: RecordedEvent[]; events: NewEvent[] }>();
    const results: Array<HandleResult<State, Event> & { streamId: string; last: number }> = [];
    // A command sent twice in one batch is decided once: the second answers what the first decided.
    const first = new Map<string, number>();
    for (const { streamId, command, commandId, metadata } of commands) {
      const twice = first.get(`${streamId}\u0000${commandId}`);
      if (twice !== undefined) {
        results.push({ ...results[twice]!, repeated: true });
        continue;
      }
      first.set(`${streamId}\u0000${commandId}`, results.length);
      let stream = decided.get(streamId);
      if (!stream) {
        const { revision, events } = streams.get(streamId)!;
        const state = fold(
          decider,
          events.map((e) => ({ type: e.type, data: e.data }) as Event),
        );
        stream = { revision, state, history: events, events: [] };
        decided.set(streamId, stream);
      }
      const earlier = earlierOutcome<Event>(stream.history, streamId, commandId);
      if (earlier) {
        results.push({ ...earlier, append: null, state: stream.state, repeated: true, streamId, last: -1 });
        continue;
      }
      const events = decider.decide(command, stream.state);
      results.push({ events, position: null, append: null, state: stream.state, repeated: false, streamId, last: -1 });
      if (events.length === 0) continue;
      stream.state = events.reduce(decider.evolve, stream.state);
      stream.events.push(
        ...events.map((e, i) => ({
          id: commandEventId(commandId, streamId, i),
          type: e.type,
          data: e.data,
          metadata: { ...metadata, commandId },
        })),
      );
      results.at(-1)!.last = stream.events.length - 1;
    }
    const appends: StreamAppend[] = [...decided]
      .filter(([, s]) => s.events.length > 0)
      .map(([streamId, s]) => ({
        streamId,
        events: s.events,
        expectedRevision: s.revision === -1 ? 'no_stream' : s.revision,
      }));
    try {
      const appended = await store.appendToStreams(appends);
      const byStream = new Map(appends.map((a, i) => [a.streamId, appended[i]!]));
      return results.map(({ streamId, last, ...result }) => {
        const append = last >= 0 ? byStream.get(streamId)! : null;
        return append ? { ...result, position: append.positions[last]!, append } : result;
      });
    } catch (err) {
      if (!(err instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(2 * attempt, 20)));
    }
  }
}

/** The events this very command appended to the stream before, if it did. */
function earlierOutcome<Event extends DomainEvent>(
  history: readonly RecordedEvent[],
  streamId: string,
  commandId: string,
): { events: Event[]; position: string } | null {
  const byId = new Map(history.map((e) => [e.id, e]));
  const found: RecordedEvent[] = [];
  for (let i = 0; ; i++) {
    const event = byId.get(commandEventId(commandId, streamId, i));
    if (!event) break;
    found.push(event);
  }
  if (found.length === 0) return null;
  return {
    events: found.map((e) => ({ type: e.type, data: e.data }) as Event),
    position: found[found.length - 1]!.position,
  };
}
