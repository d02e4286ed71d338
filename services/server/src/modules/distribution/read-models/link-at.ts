import type { EventStore } from '../../../infra/event-store/event-store.port.js';
import { fold } from '../../../shared/event-sourcing/decider.js';
import { ticketDistributionDecider } from '../distribution.decider.js';
import {
  clickStream,
  type TicketDistributed,
  type TicketDistributionEvent,
  ticketDistributionStream,
} from '../distribution.events.js';

/** A ticket's live link as it stood at a moment, with the clicks it had counted by then. */
export interface LinkAt {
  distributionId: string;
  code: string;
  clicks: number;
  maxClicks: number | null;
  expiresAt: string | null;
  label: string | null;
  createdAt: Date;
}

/** The ticket's live link at the moment, folded from its stream up to it; null when it had none. */
export async function linkAt(store: EventStore, ticketId: string, at: Date): Promise<LinkAt | null> {
  const events = (await store.readStream(ticketDistributionStream(ticketId))).events.filter((e) => e.createdAt <= at);
  const state = fold(
    ticketDistributionDecider,
    events.map((e) => ({ type: e.type, data: e.data }) as TicketDistributionEvent),
  );
  if (!state.current) return null;
  const made = events.findLast(
    (e) =>
      e.type === 'TicketDistributed' &&
      (e.data as TicketDistributed['data']).distributionId === state.current!.distributionId,
  )!;
  const data = made.data as TicketDistributed['data'];
  const clicks = (await store.readStream(clickStream(data.distributionId))).events.filter((e) => e.createdAt <= at);
  return {
    distributionId: data.distributionId,
    code: data.code,
    clicks: clicks.length,
    // As made, and edited since.
    maxClicks: state.current.maxClicks,
    expiresAt: state.current.expiresAt,
    label: state.current.label,
    createdAt: made.createdAt,
  };
}
