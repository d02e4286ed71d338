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
  'ticket.synced',
  'credits.changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The type of the event "Send a test event" delivers. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** What each event type tells, as the settings page says it. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'link.claimed': 'A link was claimed',
  'link.limit_reached': 'A link reached its claim limit',
  'link.expired': 'A link expired',
  'link.recalled': 'A link was recalled',
  'ticket.synced': 'A ticket was added, changed or removed by a sync',
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
/** The longest a rolled secret's predecessor may keep signing beside it (POST …/secret `grace_seconds`): a day. */
export const WEBHOOK_SECRET_GRACE_MAX_SECONDS = 86_400;
/** The graces the settings page offers when a secret is rolled. */
export const WEBHOOK_SECRET_GRACE_CHOICES = [
  { seconds: 0, label: 'Stop now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
] as const;

/** A moment as the messages say it: `2026-12-07 08:00:00 UTC`. */
export function webhookMoment(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

export const WEBHOOK_MESSAGES = {
  created: 'Webhook endpoint added',
  updated: 'Webhook endpoint updated',
  deleted: 'Webhook endpoint deleted',
  secretRolled: 'Signing secret rolled: the old secret no longer signs deliveries',
  /** `{until}`: webhookMoment() of when the old secret stops signing. */
  secretRolledGrace: 'Signing secret rolled: the old secret still signs deliveries, beside the new one, until {until}',
  grace: `grace_seconds must be a whole number of seconds from 0 to ${WEBHOOK_SECRET_GRACE_MAX_SECONDS}`,
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
  /**
   * Until when the secret before the current one still signs deliveries beside it (a roll with a grace); null when it
   * does not (never rolled, rolled without a grace, or its grace is over).
   */
  previous_secret_until: string | null;
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

/**
 * POST /v1/me/webhooks/{id}/secret: the body is optional. `grace_seconds` (0 to a day, 0 by default): how long the
 * secret being replaced still signs deliveries beside the new one.
 */
export const rollWebhookSecretRequestSchema = schema(() =>
  z
    .strictObject({
      grace_seconds: z
        .number({ error: WEBHOOK_MESSAGES.grace })
        .int(WEBHOOK_MESSAGES.grace)
        .min(0, WEBHOOK_MESSAGES.grace)
        .max(WEBHOOK_SECRET_GRACE_MAX_SECONDS, WEBHOOK_MESSAGES.grace)
        .optional(),
    })
    .optional(),
);
export type RollWebhookSecretRequest = z.input<typeof rollWebhookSecretRequestSchema>;
