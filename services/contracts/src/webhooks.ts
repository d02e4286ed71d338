import { z } from 'zod';
import { schema } from './schema.js';
import { hasForbiddenCharacters } from './text.js';

/**
 * Webhooks: Seatlink tells a user's own systems what happened, by an HTTPS POST to an endpoint they registered. Each
 * delivery is signed like Stripe's (`Seatlink-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`), is
 * delivered at least once, in order per link (per ticket, per balance), and retried with exponential backoff for up to
 * three days.
 */
export const WEBHOOK_EVENT_TYPES = [
  'link.claimed',
  'link.limit_reached',
  'link.expired',
  'link.recalled',
  'tickets.synced',
  'ticket.synced',
  'credits.changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/**
 * Types kept for one version only: an endpoint that asked for one keeps getting it, a new endpoint is offered them
 * unticked. `ticket.synced` (one delivery per ticket a sync changed) gives way to `tickets.synced` (a sync's changes in
 * deliveries of at most WEBHOOK_TICKETS_PER_DELIVERY tickets).
 */
export const WEBHOOK_DEPRECATED_EVENT_TYPES: readonly WebhookEventType[] = ['ticket.synced'];

/**
 * The most tickets one `tickets.synced` delivery lists: a sync's changes to an account reach an endpoint in
 * ceil(changes / 500) deliveries (`part` 1 to `parts`), so a sync of 10,000 changes makes at most 20. See
 * docs/reference.md "Limits and constants".
 */
export const WEBHOOK_TICKETS_PER_DELIVERY = 500;

/** The type of the event "Send a test event" delivers. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** What each event type tells, as the settings page says it. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'link.claimed': 'A link was claimed',
  'link.limit_reached': 'A link reached its claim limit',
  'link.expired': 'A link expired',
  'link.recalled': 'A link was recalled',
  'tickets.synced': `The tickets a sync added, changed or removed (up to ${WEBHOOK_TICKETS_PER_DELIVERY} a delivery)`,
  'ticket.synced': 'Deprecated: one delivery per ticket a sync added, changed or removed (use the batched event)',
  'credits.changed': 'Your credit balance changed',
};

/** The header a delivery is signed in. */
export const WEBHOOK_SIGNATURE_HEADER = 'Seatlink-Signature';
/** Every signing secret starts so. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Endpoints one user may have. */
export const MAX_WEBHOOKS = 10;
export const WEBHOOK_URL_MAX = 2048;
/** Deliveries the log lists, newest first. */
export const WEBHOOK_DELIVERIES_LISTED = 100;

export const WEBHOOK_MESSAGES = {
  created: 'Webhook endpoint added',
  updated: 'Webhook endpoint updated',
  deleted: 'Webhook endpoint deleted',
  secretRolled: 'Signing secret rolled: the old secret no longer signs deliveries',
  notFound: 'Webhook endpoint not found',
  deliveryNotFound: 'Delivery not found',
  limit: `You can have at most ${MAX_WEBHOOKS} webhook endpoints`,
  url: 'Enter the https:// address of your endpoint',
  urlCredentials: 'The address must not hold a user name or password',
  urlNotPublic: 'The address must be a public internet address, not a private, loopback or link-local one',
  events: `Choose the events to send: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
  resent: 'Delivery queued again',
  testSent: 'Test event queued',
  disabled: 'Endpoint disabled',
  enabled: 'Endpoint enabled',
} as const;

/** GET /v1/me/webhooks: an endpoint as listed (never its secret). */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  /** false when its owner turned it off, or Seatlink did after it failed for too long (`disabled_reason` says so). */
  enabled: boolean;
  disabled_reason: string | null;
  /** The secret's first characters ("whsec_AbCd"), to tell secrets apart. */
  secret_prefix: string;
  created_at: string;
}
export interface WebhooksResponse {
  webhooks: WebhookEndpoint[];
}

/** POST /v1/me/webhooks and POST /v1/me/webhooks/{id}/secret: the signing secret, shown this once. */
export interface WebhookSecretResponse {
  message: string;
  webhook: WebhookEndpoint;
  secret: string;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** GET /v1/me/webhooks/{id}/deliveries: one delivery of one event to the endpoint. */
export interface WebhookDelivery {
  id: string;
  event_id: string;
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** The HTTP status of the last try, null when none answered (a timeout, a refused connection). */
  last_status: number | null;
  /** Milliseconds the last try took. */
  last_latency_ms: number | null;
  last_error: string | null;
  created_at: string;
  last_attempt_at: string | null;
  /** When the next try is due (pending only). */
  next_attempt_at: string | null;
  /** The body as sent (JSON). */
  payload: string;
}
export interface WebhookDeliveriesResponse {
  deliveries: WebhookDelivery[];
}

/** The body of every delivery. */
export interface WebhookPayload<Data = Record<string, unknown>> {
  id: string;
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  created_at: string;
  data: Data;
}

/** What happened to a ticket in a sync. */
export type WebhookTicketChange = 'added' | 'changed' | 'removed';

/** A ticket as a sync left it (`ticket.synced`, and each entry of `tickets.synced`); null when it was removed. */
export interface WebhookTicketFields {
  title: string;
  subtitle: string | null;
  venue_name: string | null;
  section: string | null;
  row: string | null;
  seat: string | null;
  next_game: string | null;
  next_game_date: string | null;
}

/**
 * The `data` of a `tickets.synced` delivery: one account's ticket changes, in the order they were recorded, at most
 * WEBHOOK_TICKETS_PER_DELIVERY of them. The deliveries of one batch share `sync_id` and are numbered `part` 1 to
 * `parts`; the receiver has all of them once it holds every part. `sync_finished`: the sync was seen to finish (false
 * when the changes were sent after WEBHOOK_BATCH_WAIT_MS without it: a later batch may hold the rest).
 */
export interface TicketsSyncedData {
  account_id: string;
  sync_id: string;
  part: number;
  parts: number;
  sync_finished: boolean;
  tickets: Array<{ ticket_id: string; change: WebhookTicketChange; ticket: WebhookTicketFields | null }>;
}

/** The address, or null when it is none. */
function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

const urlSchema = () =>
  z
    .string({ error: WEBHOOK_MESSAGES.url })
    .trim()
    .min(1, WEBHOOK_MESSAGES.url)
    .max(WEBHOOK_URL_MAX, WEBHOOK_MESSAGES.url)
    .refine((value) => !hasForbiddenCharacters(value), WEBHOOK_MESSAGES.url)
    .refine((value) => /^https?:$/.test(parseUrl(value)?.protocol ?? ''), WEBHOOK_MESSAGES.url)
    .refine((value) => {
      const url = parseUrl(value);
      return !url?.username && !url?.password;
    }, WEBHOOK_MESSAGES.urlCredentials);

const eventsSchema = () =>
  z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: WEBHOOK_MESSAGES.events }), { error: WEBHOOK_MESSAGES.events })
    .min(1, WEBHOOK_MESSAGES.events)
    .max(WEBHOOK_EVENT_TYPES.length, WEBHOOK_MESSAGES.events)
    .transform((events) => WEBHOOK_EVENT_TYPES.filter((e) => events.includes(e)));

/** POST /v1/me/webhooks. Plain http:// is refused by the server unless its host is on its development allow-list. */
export const createWebhookRequestSchema = schema(() => z.strictObject({ url: urlSchema(), events: eventsSchema() }));
export type CreateWebhookRequest = z.input<typeof createWebhookRequestSchema>;

/** PATCH /v1/me/webhooks/{id}: what is given changes. */
export const updateWebhookRequestSchema = schema(() =>
  z
    .strictObject({
      url: urlSchema().optional(),
      events: eventsSchema().optional(),
      enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
    })
    .refine((body) => Object.keys(body).length > 0, 'Give url, events or enabled'),
);
export type UpdateWebhookRequest = z.input<typeof updateWebhookRequestSchema>;
