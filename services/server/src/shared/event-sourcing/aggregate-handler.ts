import { v5 as uuidv5 } from 'uuid';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../../infra/event-store/event-store.port.js';
import { type Decider, type DomainEvent, fold } from './decider.js';

const EVENT_ID_NAMESPACE = '1b671a64-40d5-491e-99b0-da01ff1f3341';

/** The id of the `index`-th event a command appends to a stream: the same command, the same ids. */
export const commandEventId = (commandId: string, streamId: string, index: number) =>
  uuidv5(`${commandId}:${streamId}:${index}`, EVENT_ID_NAMESPACE);

export interface HandleOptions {
  /** Caller, IP, bulk flag: copied onto every event. */
  metadata: EventMetadata;
  /**
   * Id of this command. Event ids derive from it, so handling the same command twice (a retried job, a repeated
   * request with the same Idempotency-Key) appends nothing the second time and answers what the first time decided.
   */
  commandId: string;
  maxAttempts?: number;
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

/**
 * Reads the stream, folds its state, decides, and appends with the expected revision; on a concurrency conflict it
 * reads again and decides again, so a decision is never made on stale state.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  streamId: string,
  command: Command,
  options: HandleOptions,
): Promise<HandleResult<State, Event>> {
  const maxAttempts = options.maxAttempts ?? 10;
  for (let attempt = 1; ; attempt++) {
    const { revision, events: history } = await store.readStream(streamId);
    const state = fold(
      decider,
      history.map((e) => ({ type: e.type, data: e.data }) as Event),
    );
    const earlier = earlierOutcome<Event>(history, streamId, options.commandId);
    if (earlier) return { ...earlier, append: null, state, repeated: true };
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, position: null, append: null, state, repeated: false };
    try {
      const append = await store.appendToStream(
        streamId,
        events.map((e, i) => ({
          id: commandEventId(options.commandId, streamId, i),
          type: e.type,
          data: e.data,
          metadata: { ...options.metadata, commandId: options.commandId },
        })),
        { expectedRevision: revision === -1 ? 'no_stream' : revision },
      );
      return { events, position: append.position, append, state, repeated: append.repeated === true };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw err;
      // Someone else appended first: back off a little (with jitter, so racing writers spread out), then decide again.
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
