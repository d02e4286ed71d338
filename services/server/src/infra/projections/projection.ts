import type { ServerEventName, ServerEventPayload } from '@seatlink/contracts';
import type { Tx } from '../db/database.js';
import type { RecordedEvent } from '../event-store/event-store.port.js';

/** A live update to push once the projection's transaction has committed. */
export interface LiveUpdate<E extends ServerEventName = ServerEventName> {
  to: { userId: string } | 'admins';
  event: E;
  payload: ServerEventPayload<E>;
}

export interface ProjectionContext {
  tx: Tx;
  /** Queue a live update; it is sent only after the batch commits. */
  push<E extends ServerEventName>(update: LiveUpdate<E>): void;
}

/** One read model: the events it reads, how each changes its tables, and the tables a rebuild empties. */
export interface Projection {
  readonly name: string;
  readonly tables: readonly string[];
  readonly handles: readonly string[];
  apply(event: RecordedEvent, ctx: ProjectionContext): Promise<void>;
}

export const PROJECTIONS = Symbol('Projections');
