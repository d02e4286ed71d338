import type { WebhookEventType } from '@seatlink/contracts';
import { v5 as uuidv5 } from 'uuid';
import type { RecordedEvent } from '../../infra/event-store/event-store.port.js';

/** The events of other modules the fan-out turns into webhook events, with what it reads of them (as recorded). */
interface Pass {
  title: string;
  subtitle: string | null;
  venueName: string | null;
  section: string | null;
  row: string | null;
  seat: string | null;
  nextGame: string | null;
  nextGameDate: string | null;
}
interface Sources {
  LinkClicked: { distributionId: string; ticketId: string; userId: string; n: number; at: string };
  TicketRecalled: { distributionId: string; ticketId: string; userId: string; at: string };
  LinkExpired: { distributionId: string; ticketId: string; userId: string; expiresAt: string; at: string };
  TicketDiscovered: { accountId: string; userId: string; ticketId: string; pass: Pass; at: string };
  TicketChanged: { accountId: string; userId: string; ticketId: string; pass: Pass; at: string };
  TicketGone: { accountId: string; userId: string; ticketId: string; at: string };
  CreditsSet: { userId: string; credits: number; previousBalance: number; at: string };
  CreditsDebited: { userId: string; amount: number; balanceAfter: number; reference: string; at: string };
  CreditsRefunded: { userId: string; amount: number; balanceAfter: number; reference: string; at: string };
  CreditsPurchased: { userId: string; amount: number; balanceAfter: number; paymentIntentId: string; at: string };
  CreditsReversed: { userId: string; amount: number; balanceAfter: number; reason: string; at: string };
}
export type SourceEvent = { [T in keyof Sources]: { type: T; data: Sources[T] } }[keyof Sources];
export const SOURCE_EVENTS = [
  'LinkClicked',
  'TicketRecalled',
  'LinkExpired',
  'TicketDiscovered',
  'TicketChanged',
  'TicketGone',
  'CreditsSet',
  'CreditsDebited',
  'CreditsRefunded',
  'CreditsPurchased',
  'CreditsReversed',
] as const satisfies ReadonlyArray<keyof Sources>;

/** One webhook event: its id (the same for every endpoint), whose events it follows in order, and its body. */
export interface OutgoingEvent {
  id: string;
  userId: string;
  type: WebhookEventType;
  /** Events with the same key reach an endpoint one after the other, in the order they happened. */
  orderKey: string;
  /** When it happened. */
  at: string;
  payload: string;
}

const EVENT_ID_NAMESPACE = '7f3e9a1c-5b2d-4e8f-a6c0-9d1b3e5f7a24';

/** The body every delivery carries: `{ id, type, created_at, data }`. */
export function webhookBody(id: string, type: string, createdAt: string, data: Record<string, unknown>): string {
  return JSON.stringify({ id, type, created_at: createdAt, data });
}

/** A link's id as payloads name it: `distribution_id`, and `link_id` (deprecated, the same value) for one version. */
function linkIds(distributionId: string, ticketId: string) {
  return { distribution_id: distributionId, link_id: distributionId, ticket_id: ticketId };
}

function pass(p: Pass) {
  return {
    title: p.title,
    subtitle: p.subtitle,
    venue_name: p.venueName,
    section: p.section,
    row: p.row,
    seat: p.seat,
    next_game: p.nextGame,
    next_game_date: p.nextGameDate,
  };
}

/**
 * The webhook events one recorded event makes (a claim that reaches its link's limit makes two). `limits`: each
 * link's click limit now (null: none), for `link.limit_reached`.
 */
export function webhookEventsOf(recorded: RecordedEvent, limits: ReadonlyMap<string, number | null>): OutgoingEvent[] {
  const event = { type: recorded.type, data: recorded.data } as SourceEvent;
  const make = (type: WebhookEventType, orderKey: string, at: string, data: Record<string, unknown>, tag = '') => {
    const id = uuidv5(`${recorded.id}/${type}${tag}`, EVENT_ID_NAMESPACE);
    return { id, userId: event.data.userId, type, orderKey, at, payload: webhookBody(id, type, at, data) };
  };
  switch (event.type) {
    case 'LinkClicked': {
      const { distributionId, ticketId, n, at } = event.data;
      const maxClicks = limits.get(distributionId) ?? null;
      const key = `link:${distributionId}`;
      const link = linkIds(distributionId, ticketId);
      const out = [make('link.claimed', key, at, { ...link, claims: n, max_clicks: maxClicks, claimed_at: at })];
      if (maxClicks !== null && n === maxClicks) {
        out.push(make('link.limit_reached', key, at, { ...link, claims: n, max_clicks: maxClicks, reached_at: at }));
      }
      return out;
    }
    case 'TicketRecalled': {
      const { distributionId, ticketId, at } = event.data;
      return [
        make('link.recalled', `link:${distributionId}`, at, { ...linkIds(distributionId, ticketId), recalled_at: at }),
      ];
    }
    case 'LinkExpired': {
      const { distributionId, ticketId, expiresAt, at } = event.data;
      return [
        make('link.expired', `link:${distributionId}`, at, {
          ...linkIds(distributionId, ticketId),
          expires_at: expiresAt,
        }),
      ];
    }
    case 'TicketDiscovered':
    case 'TicketChanged':
    case 'TicketGone': {
      const { ticketId, accountId, at } = event.data;
      const change =
        event.type === 'TicketDiscovered' ? 'added' : event.type === 'TicketChanged' ? 'changed' : 'removed';
      const ticket = event.type === 'TicketGone' ? null : pass(event.data.pass);
      return [
        make('ticket.synced', `ticket:${ticketId}`, at, { ticket_id: ticketId, account_id: accountId, change, ticket }),
      ];
    }
    default: {
      const credits = creditChange(event);
      if (!credits) return [];
      return [make('credits.changed', `credits:${event.data.userId}`, event.data.at, credits)];
    }
  }
}

/** A balance's change: what it is now, by how much and why. */
function creditChange(event: SourceEvent): Record<string, unknown> | null {
  switch (event.type) {
    case 'CreditsSet':
      return {
        balance: event.data.credits,
        change: event.data.credits - event.data.previousBalance,
        reason: 'set_by_admin',
      };
    case 'CreditsDebited':
      return { balance: event.data.balanceAfter, change: -event.data.amount, reason: 'links_paid' };
    case 'CreditsRefunded':
      return { balance: event.data.balanceAfter, change: event.data.amount, reason: 'links_not_made' };
    case 'CreditsPurchased':
      return { balance: event.data.balanceAfter, change: event.data.amount, reason: 'purchase' };
    case 'CreditsReversed':
      return { balance: event.data.balanceAfter, change: -event.data.amount, reason: event.data.reason };
    default:
      return null;
  }
}
