import {
  type EventMetadata,
  type EventStore,
  WrongExpectedRevisionError,
} from '../../infra/event-store/event-store.port.js';
import { commandEventId } from '../../shared/event-sourcing/aggregate-handler.js';
import type { DistributionRefused, LinkUpdateRefused, RecallRefused } from './distribution.events.js';

/**
 * Records what a request was refused (the audit log's FAILED entries) in one append to its own stream
 * (`refusalStream`): a log no decider decides, which the request writes once. Answers the position written, or null
 * for a retry of the same request, whose refusals were recorded the first time.
 */
export async function recordRefusals(
  store: EventStore,
  stream: string,
  commandId: string,
  refusals: ReadonlyArray<DistributionRefused | RecallRefused | LinkUpdateRefused>,
  metadata: EventMetadata,
): Promise<string | null> {
  const events = refusals.map((r, i) => ({ id: commandEventId(commandId, stream, i), ...r, metadata }));
  try {
    return (await store.appendToStream(stream, events, { expectedRevision: 'no_stream' })).position;
  } catch (err) {
    if (err instanceof WrongExpectedRevisionError) return null;
    throw err;
  }
}
