import {
  type LinkRecipient,
  type TicketsSyncedData,
  WEBHOOK_TICKETS_PER_DELIVERY,
  type WebhookEventType,
  type WebhookTicketChange,
} from '@seatlink/contracts';
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
  LinkClicked: {
    distributionId: string;
    ticketId: string;
    userId: string;
    n: number;
    at: string;
    name?: string;
    device?: string;
  };
  TicketRecalled: { distributionId: string; ticketId: string; userId: string; at: string };
  LinkExpired: { distributionId: string; ticketId: string; userId: string; expiresAt: string; at: string };
  LinkPinGuessed: {
    distributionId: string;
    ticketId: string;
    userId: string;
    failures: number;
    since: string;
    at: string;
  };
  TicketDiscovered: { accountId: string; userId: string; ticketId: string; pass: Pass; at: string };
  TicketChanged: { accountId: string; userId: string; ticketId: string; pass: Pass; at: string };
  TicketGone: { accountId: string; userId: string; ticketId: string; at: string };
  /** A sync's ticket changes are complete: what was collected for `tickets.synced` goes. */
  WalletAccountSynced: { accountId: string; userId: string; at: string };
  /** The account is gone (its tickets' TicketGone came before): what was collected goes. */
  WalletAccountDeleted: { accountId: string; userId: string; at: string };
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
  'LinkPinGuessed',
  'TicketDiscovered',
  'TicketChanged',
  'TicketGone',
  'WalletAccountSynced',
  'WalletAccountDeleted',
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
const DELIVERY_ID_NAMESPACE = '2d6b8f0a-4c1e-4a7d-b3f5-8e0c2a4d6f91';

/** A delivery's id: the event's and the endpoint's, so a batch applied again adds none twice. */
export const deliveryIdOf = (eventId: string, endpointId: string) =>
  uuidv5(`${eventId}/${endpointId}`, DELIVERY_ID_NAMESPACE);

/** The body every delivery carries: `{ id, type, created_at, data }`. */
export function webhookBody(id: string, type: string, createdAt: string, data: Record<string, unknown>): string {
  return JSON.stringify({ id, type, created_at: createdAt, data });
}

/** Whom each link is for now (its named recipient), by link id; a link for nobody named is absent. */
export type LinkRecipients = ReadonlyMap<string, LinkRecipient>;

/**
 * A link as payloads name it: `distribution_id`, and `link_id` (deprecated, the same value) for one version; its ticket
 * and whom it is for.
 */
function linkIds(distributionId: string, ticketId: string, recipients: LinkRecipients) {
  return {
    distribution_id: distributionId,
    link_id: distributionId,
    ticket_id: ticketId,
    recipient: recipients.get(distributionId) ?? null,
  };
}

/** The link a recorded event is about (the link events the fan-out turns into `link.*`), or null. */
export function linkOf(recorded: Pick<RecordedEvent, 'type' | 'data'>): string | null {
  const event = { type: recorded.type, data: recorded.data } as SourceEvent;
  switch (event.type) {
    case 'LinkClicked':
    case 'TicketRecalled':
    case 'LinkExpired':
    case 'LinkPinGuessed':
      return event.data.distributionId;
    default:
      return null;
  }
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
 * link's click limit now (null: none), for `link.limit_reached`; `recipients`: whom each link is for.
 */
export function webhookEventsOf(
  recorded: RecordedEvent,
  limits: ReadonlyMap<string, number | null>,
  recipients: LinkRecipients = new Map(),
): OutgoingEvent[] {
  const event = { type: recorded.type, data: recorded.data } as SourceEvent;
  const make = (type: WebhookEventType, orderKey: string, at: string, data: Record<string, unknown>, tag = '') => {
    const id = uuidv5(`${recorded.id}/${type}${tag}`, EVENT_ID_NAMESPACE);
    return { id, userId: event.data.userId, type, orderKey, at, payload: webhookBody(id, type, at, data) };
  };
  switch (event.type) {
    case 'LinkClicked': {
      const { distributionId, ticketId, n, at, name, device } = event.data;
      const maxClicks = limits.get(distributionId) ?? null;
      const key = `link:${distributionId}`;
      const link = linkIds(distributionId, ticketId, recipients);
      const claimedBy = { name: name ?? null, device: device ?? null };
      const out = [
        make('link.claimed', key, at, {
          ...link,
          claims: n,
          max_clicks: maxClicks,
          claimed_at: at,
          claimed_by: claimedBy,
        }),
      ];
      if (maxClicks !== null && n === maxClicks) {
        out.push(make('link.limit_reached', key, at, { ...link, claims: n, max_clicks: maxClicks, reached_at: at }));
      }
      return out;
    }
    case 'TicketRecalled': {
      const { distributionId, ticketId, at } = event.data;
      return [
        make('link.recalled', `link:${distributionId}`, at, {
          ...linkIds(distributionId, ticketId, recipients),
          recalled_at: at,
        }),
      ];
    }
    case 'LinkExpired': {
      const { distributionId, ticketId, expiresAt, at } = event.data;
      return [
        make('link.expired', `link:${distributionId}`, at, {
          ...linkIds(distributionId, ticketId, recipients),
          expires_at: expiresAt,
        }),
      ];
    }
    case 'LinkPinGuessed': {
      const { distributionId, ticketId, failures, since, at } = event.data;
      return [
        make('link.pin_guessed', `link:${distributionId}`, at, {
          ...linkIds(distributionId, ticketId, recipients),
          failures,
          since,
          guessed_at: at,
        }),
      ];
    }
    case 'TicketDiscovered':
    case 'TicketChanged':
    case 'TicketGone': {
      const { accountId, at } = event.data;
      const { ticket_id, change, ticket } = ticketChangeOf(recorded)!.entry;
      return [make('ticket.synced', `ticket:${ticket_id}`, at, { ticket_id, account_id: accountId, change, ticket })];
    }
    default: {
      const credits = creditChange(event);
      if (!credits) return [];
      return [make('credits.changed', `credits:${event.data.userId}`, event.data.at, credits)];
    }
  }
}

type TicketEntry = TicketsSyncedData['tickets'][number];

/** What a ticket event tells (`ticket.synced`'s fields, and an entry of `tickets.synced`), or null for another event. */
export function ticketChangeOf(
  recorded: Pick<RecordedEvent, 'type' | 'data'>,
): { accountId: string; entry: TicketEntry } | null {
  const event = { type: recorded.type, data: recorded.data } as SourceEvent;
  if (event.type !== 'TicketDiscovered' && event.type !== 'TicketChanged' && event.type !== 'TicketGone') return null;
  const change: WebhookTicketChange =
    event.type === 'TicketDiscovered' ? 'added' : event.type === 'TicketChanged' ? 'changed' : 'removed';
  const ticket = event.type === 'TicketGone' ? null : pass(event.data.pass);
  return { accountId: event.data.accountId, entry: { ticket_id: event.data.ticketId, change, ticket } };
}

/**
 * The `tickets.synced` events one account's collected ticket changes make for one endpoint: the entries (JSON, in the
 * order they were recorded) in parts of at most WEBHOOK_TICKETS_PER_DELIVERY, numbered `part` 1 to `parts` under one
 * `sync_id`. `trigger`: what sent them (the WalletAccountSynced or WalletAccountDeleted event, or the first change
 * when they went after the wait): the ids are derived from it, so the same changes sent again make the same events.
 * `finished`: the sync was seen to finish.
 */
export function ticketBatchesOf(batch: {
  trigger: string;
  endpointId: string;
  userId: string;
  accountId: string;
  at: string;
  finished: boolean;
  entries: readonly string[];
}): OutgoingEvent[] {
  const type = 'tickets.synced';
  const syncId = uuidv5(`${batch.trigger}/${type}`, EVENT_ID_NAMESPACE);
  const parts = Math.ceil(batch.entries.length / WEBHOOK_TICKETS_PER_DELIVERY);
  const out: OutgoingEvent[] = [];
  for (let part = 1; part <= parts; part++) {
    const id = uuidv5(`${batch.trigger}/${type}/${batch.endpointId}/${part}`, EVENT_ID_NAMESPACE);
    const from = (part - 1) * WEBHOOK_TICKETS_PER_DELIVERY;
    const tickets = batch.entries
      .slice(from, from + WEBHOOK_TICKETS_PER_DELIVERY)
      .map((entry) => JSON.parse(entry) as TicketEntry);
    const data: TicketsSyncedData = {
      account_id: batch.accountId,
      sync_id: syncId,
      part,
      parts,
      sync_finished: batch.finished,
      tickets,
    };
    out.push({
      id,
      userId: batch.userId,
      type,
      orderKey: `tickets:${batch.accountId}`,
      at: batch.at,
      payload: webhookBody(id, type, batch.at, data),
    });
  }
  return out;
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
