import type { ServerEventName, ServerEventPayload } from '@seatlink/contracts';
import type { Tx } from '../db/database.js';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port.js';
import { providerMark } from '../../shared/provider-mark.js';

/** A live update to push once the subscription's transaction has committed. */
export interface LiveUpdate<E extends ServerEventName = ServerEventName> {
  to: { userId: string } | 'admins';
  event: E;
  payload: ServerEventPayload<E>;
}

export interface SubscriptionContext {
  /** The transaction that also moves the subscription's checkpoint past these events. */
  tx: Tx;
  /** Queue a live update; it is sent only after the transaction commits. */
  push: <E extends ServerEventName>(update: LiveUpdate<E>) => void;
  /**
   * The event store inside this transaction: what a reaction appends (the commands it issues) commits with its
   * checkpoint, so a crash neither loses nor repeats it.
   */
  store: EventStore;
  /** Work to do once the transaction has committed (wake a dispatcher, close sockets). Failures are only logged. */
  afterCommit: (work: () => void | Promise<void>) => void;
}

/**
 * A named reader of the global feed with a checkpoint of its own.
 * - A **projection** builds read-model tables; a rebuild empties its tables and replays it from the beginning.
 * - A **reaction** does something because of an event (queue an e-mail, end sessions). It runs at least once per
 *   event; its writes commit with its checkpoint, so a crash neither loses nor repeats them.
 * A failing event is retried, then parked; the subscription moves on and no other subscription waits for it.
 */
export interface Subscription {
  readonly name: string;
  readonly kind: 'projection' | 'reaction';
  /** The event types it reads; the others only move its checkpoint. */
  readonly handles: readonly string[];
  /** A projection's tables (emptied by a rebuild). */
  readonly tables?: readonly string[];
  /**
   * At most this many of its events per transaction (the host's batch size otherwise, if smaller): a subscription
   * whose every event costs a command keeps its transactions short, so they hold no reader of the feed back for long
   * (the feed shows nothing past the oldest open transaction).
   */
  readonly batchSize?: number;
  /** Where it starts the first time it runs: projections from the beginning, reactions from now by default. */
  readonly startFrom?: 'beginning' | 'now';
  /**
   * Applies a batch of its events, in feed order, inside the transaction that moves its checkpoint. Set-based: write
   * a batch with as few statements as possible (multi-row upserts, the last value per key).
   */
  apply(events: readonly RecordedEvent[], ctx: SubscriptionContext): Promise<void>;
  /**
   * A SQL function that applies a page of the projection's events inside the database. It suits a projection of many
   * small events (clicks): they are never read into the process. It must do exactly what `apply` does.
   * - It takes `(p_epoch integer, p_tx bigint, p_pos bigint, p_limit integer)`: the feed position to read after, and
   *   at most how many of its events.
   * - It answers one row `(o_epoch, o_tx, o_pos, o_applied, o_more)`: the feed position it read up to (as
   *   `seatlink_read_feed_for` reads it), how many of its events it applied, and whether more may be readable at once.
   * - A row without a position leaves this page to `apply`. No row means nothing new is readable.
   * It is used only where the events are in the same database, and the checkpoint moves in the same statement. When it
   * fails, the page goes through `apply`, which retries and parks an event at fault.
   */
  readonly inDatabase?: string;
  /**
   * Applies one parked event again, out of its turn (an operator's retry), so that the result is what it would have
   * been in turn: a row projection rebuilds the rows the event touches from their whole stream. Without it, a retry
   * applies the event as it is.
   */
  repair?: (event: RecordedEvent, ctx: SubscriptionContext) => Promise<void>;
}

const subscriptions = providerMark<Subscription>('seatlink.subscription');

/** Marks an object or class instance as a subscription, so the module that provides it registers it. */
export const asSubscription = subscriptions.markObject;

/** Class decorator: instances of the class are subscriptions. */
export const EventSubscription = subscriptions.markClass;

/** The application's subscriptions (each once). */
export const findSubscriptions = subscriptions.found;

/** The Nest provider of a plain-object subscription (`providers: [provideSubscription(usersProjection)]`). */
export function provideSubscription(subscription: Subscription) {
  return { provide: `subscription:${subscription.name}`, useValue: asSubscription(subscription) };
}
