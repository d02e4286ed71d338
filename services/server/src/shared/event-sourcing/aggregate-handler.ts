import { v5 as uuidv5 } from 'uuid';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  WrongExpectedRevisionError,
} from '../../infra/event-store/event-store.port.js';
import { type Decider, type DomainEvent, fold } from './decider.js';

const EVENT_ID_NAMESPACE = '1b671a64-40d5-491e-99b0-da01ff1f3341';

export interface HandleOptions {
  /** Caller, IP, bulk flag: copied onto every event. */
  metadata: EventMetadata;
  /**
   * Id of this command. Event ids derive from it, so handling the same command twice (a retried job, a repeated
   * request) appends nothing the second time.
   */
  commandId: string;
  maxAttempts?: number;
}

export interface HandleResult<Event extends DomainEvent> {
  events: Event[];
  /** Position of the last appended event; null when the command produced no events. */
  position: string | null;
  append: AppendResult | null;
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
): Promise<HandleResult<Event>> {
  const maxAttempts = options.maxAttempts ?? 10;
  for (let attempt = 1; ; attempt++) {
    const { revision, events: history } = await store.readStream(streamId);
    const state = fold(
      decider,
      history.map((e) => ({ type: e.type, data: e.data }) as Event),
    );
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, position: null, append: null };
    try {
      const append = await store.appendToStream(
        streamId,
        events.map((e, i) => ({
          id: uuidv5(`${options.commandId}:${streamId}:${i}`, EVENT_ID_NAMESPACE),
          type: e.type,
          data: e.data,
          metadata: { ...options.metadata, commandId: options.commandId },
        })),
        { expectedRevision: revision === -1 ? 'no_stream' : revision },
      );
      return { events, position: append.position, append };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw err;
      // Someone else appended first: back off a little (with jitter, so racing writers spread out), then decide again.
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(2 * attempt, 20)));
    }
  }
}
