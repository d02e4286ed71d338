import { z } from 'zod';
import { named, schema, timestampSchema } from './schema.js';
import { linkRecipientSchema } from './recipients.js';
import { PIN_GUESS_ALERT_AT, PIN_GUESS_WINDOW_MINUTES } from './links.js';
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
  'link.pin_guessed',
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
  'link.pin_guessed': 'Wrong PINs were tried on a link, again and again',
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
export const webhookEndpointSchema = schema(() =>
  named(
    'WebhookEndpoint',
    z.object({
      id: z.uuid(),
      url: z.string(),
      events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
      /** false when its owner turned it off, or Seatlink did after it failed for too long (`disabled_reason` says so). */
      enabled: z.boolean(),
      disabled_reason: z.string().nullable(),
      /** The secret's first characters ("whsec_AbCd"), to tell secrets apart. */
      secret_prefix: z.string(),
      /**
       * Until when the secret before the current one still signs deliveries beside it (a roll with a grace); null when
       * it does not (never rolled, rolled without a grace, or its grace is over).
       */
      previous_secret_until: timestampSchema.nullable(),
      created_at: timestampSchema,
    }),
    'A webhook endpoint (never its secret).',
  ),
);
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhooksResponseSchema = schema(() =>
  named('WebhooksResponse', z.object({ webhooks: z.array(webhookEndpointSchema) })),
);
export type WebhooksResponse = z.infer<typeof webhooksResponseSchema>;

/** PATCH /v1/me/webhooks/{id}: the endpoint as it is now. */
export const webhookEndpointResponseSchema = schema(() =>
  named('WebhookEndpointResponse', z.object({ message: z.string(), webhook: webhookEndpointSchema })),
);
export type WebhookEndpointResponse = z.infer<typeof webhookEndpointResponseSchema>;

/** POST /v1/me/webhooks and POST /v1/me/webhooks/{id}/secret: the signing secret, shown this once. */
export const webhookSecretResponseSchema = schema(() =>
  named(
    'WebhookSecretResponse',
    z.object({
      message: z.string(),
      webhook: webhookEndpointSchema,
      secret: z.string().meta({ description: 'The signing secret (`whsec_…`), shown this once.' }),
    }),
  ),
);
export type WebhookSecretResponse = z.infer<typeof webhookSecretResponseSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** GET /v1/me/webhooks/{id}/deliveries: one delivery of one event to the endpoint. */
export const webhookDeliverySchema = schema(() =>
  named(
    'WebhookDelivery',
    z.object({
      id: z.uuid(),
      event_id: z.uuid(),
      type: z.enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT]),
      status: z.enum(WEBHOOK_DELIVERY_STATUSES),
      attempts: z.number().int(),
      last_status: z.number().int().nullable().meta({
        description: 'The HTTP status of the last try, null when none answered (a timeout, a refused connection).',
      }),
      last_latency_ms: z.number().int().nullable().meta({ description: 'Milliseconds the last try took.' }),
      last_error: z.string().nullable(),
      created_at: timestampSchema,
      last_attempt_at: timestampSchema.nullable(),
      next_attempt_at: timestampSchema.nullable().meta({ description: 'When the next try is due (pending only).' }),
      payload: z.string().meta({ description: 'The body as sent (JSON).' }),
    }),
    'One delivery of one event to an endpoint.',
  ),
);
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesResponseSchema = schema(() =>
  named('WebhookDeliveriesResponse', z.object({ deliveries: z.array(webhookDeliverySchema) })),
);
export type WebhookDeliveriesResponse = z.infer<typeof webhookDeliveriesResponseSchema>;

/** POST …/test and …/deliveries/{id}/resend (202): the delivery queued. */
export const webhookDeliveryQueuedSchema = schema(() =>
  named('WebhookDeliveryQueued', z.object({ message: z.string(), delivery: webhookDeliverySchema })),
);
export type WebhookDeliveryQueued = z.infer<typeof webhookDeliveryQueuedSchema>;

/** The body of every delivery. */
export interface WebhookPayload<Data = Record<string, unknown>> {
  id: string;
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  created_at: string;
  data: Data;
}

/** A link's id in a payload: `distribution_id`, and `link_id` (the same value) for one version. */
const linkIdsShape = schema(() => ({
  distribution_id: z.uuid().meta({ description: "The link's id (as in the API's paths and answers)." }),
  link_id: z.uuid().meta({ deprecated: true, description: 'Deprecated: use distribution_id (the same value).' }),
  ticket_id: z.uuid(),
  recipient: linkRecipientSchema.nullable().meta({
    description: 'Whom the link is for (its named recipient) when the delivery was made; null: nobody named.',
  }),
}));

/** What happened to a ticket in a sync. */
export const WEBHOOK_TICKET_CHANGES = ['added', 'changed', 'removed'] as const;
export type WebhookTicketChange = (typeof WEBHOOK_TICKET_CHANGES)[number];

/** A ticket as a sync left it (`ticket.synced`, and each entry of `tickets.synced`); null when it was removed. */
const webhookTicketSchema = schema(() =>
  named(
    'WebhookTicket',
    z.object({
      title: z.string(),
      subtitle: z.string().nullable(),
      venue_name: z.string().nullable(),
      section: z.string().nullable(),
      row: z.string().nullable(),
      seat: z.string().nullable(),
      next_game: z.string().nullable(),
      next_game_date: z.string().nullable(),
    }),
  ),
);

/**
 * The `data` of a `tickets.synced` delivery: one account's ticket changes, in the order they were recorded, at most
 * WEBHOOK_TICKETS_PER_DELIVERY of them. The deliveries of one batch share `sync_id` and are numbered `part` 1 to
 * `parts`; the receiver has all of them once it holds every part. `sync_finished`: the sync was seen to finish (false
 * when the changes were sent after WEBHOOK_BATCH_WAIT_MS without it: a later batch may hold the rest).
 */
const ticketsSyncedDataSchema = schema(() =>
  z.object({
    account_id: z.uuid().meta({ description: 'The wallet account the tickets came from.' }),
    sync_id: z.uuid().meta({ description: 'The same in every part of one batch.' }),
    part: z.number().int().min(1),
    parts: z.number().int().min(1),
    sync_finished: z.boolean(),
    tickets: z
      .array(
        z.object({
          ticket_id: z.uuid(),
          change: z.enum(WEBHOOK_TICKET_CHANGES),
          ticket: webhookTicketSchema.nullable(),
        }),
      )
      .max(WEBHOOK_TICKETS_PER_DELIVERY),
  }),
);
export type WebhookTicketFields = z.infer<typeof webhookTicketSchema>;
export type TicketsSyncedData = z.infer<typeof ticketsSyncedDataSchema>;

/** A delivery's body: `{ id, type, created_at, data }`, named `<Type>Event` in the API document. */
function envelope<const T extends string, D extends z.ZodType>(type: T, data: D, description: string) {
  const id = `${type
    .split(/[._]/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}Event`;
  return named(
    id,
    z.object({
      id: z.uuid().meta({ description: "The event's id: the same in every delivery of it (resends too)." }),
      type: z.literal(type),
      created_at: timestampSchema,
      data,
    }),
    description,
  );
}

/**
 * What each event type delivers, as the API document's `webhooks` section lists it. The server's fan-out builds these
 * bodies; its unit spec holds every body it builds to these schemas.
 */
export const webhookEventSchemas = schema(() => ({
  'link.claimed': envelope(
    'link.claimed',
    z.object({
      ...linkIdsShape,
      claims: z.number().int().meta({ description: "The link's claims, this one included." }),
      max_clicks: z.number().int().nullable().meta({ description: "The link's claim limit; null: none." }),
      claimed_at: timestampSchema,
      claimed_by: z
        .object({
          name: z.string().nullable().meta({ description: 'The name the recipient gave when claiming; null: none.' }),
          device: z
            .string()
            .nullable()
            .meta({ description: 'The kind of device the claim came from ("iPhone", "Windows PC"); null: not known.' }),
        })
        .meta({ description: 'Who claimed.' }),
    }),
    WEBHOOK_EVENT_LABELS['link.claimed'],
  ),
  'link.limit_reached': envelope(
    'link.limit_reached',
    z.object({ ...linkIdsShape, claims: z.number().int(), max_clicks: z.number().int(), reached_at: timestampSchema }),
    WEBHOOK_EVENT_LABELS['link.limit_reached'],
  ),
  'link.expired': envelope(
    'link.expired',
    z.object({ ...linkIdsShape, expires_at: timestampSchema }),
    WEBHOOK_EVENT_LABELS['link.expired'],
  ),
  'link.recalled': envelope(
    'link.recalled',
    z.object({ ...linkIdsShape, recalled_at: timestampSchema }),
    WEBHOOK_EVENT_LABELS['link.recalled'],
  ),
  'link.pin_guessed': envelope(
    'link.pin_guessed',
    z.object({
      ...linkIdsShape,
      failures: z
        .number()
        .int()
        .min(1)
        .meta({
          description: `Wrong PINs tried on the link within ${PIN_GUESS_WINDOW_MINUTES} minutes (sent at the ${PIN_GUESS_ALERT_AT}th).`,
        }),
      since: timestampSchema.meta({ description: 'When the first of them was tried.' }),
      guessed_at: timestampSchema,
    }),
    `${WEBHOOK_EVENT_LABELS['link.pin_guessed']}: ${PIN_GUESS_ALERT_AT} wrong PINs within ${PIN_GUESS_WINDOW_MINUTES} minutes, told once per ${PIN_GUESS_WINDOW_MINUTES} minutes. Nobody is locked out; set a new PIN by editing the link.`,
  ),
  'ticket.synced': envelope(
    'ticket.synced',
    z.object({
      ticket_id: z.uuid(),
      account_id: z.uuid().meta({ description: 'The wallet account the ticket came from.' }),
      change: z.enum(WEBHOOK_TICKET_CHANGES),
      ticket: webhookTicketSchema.nullable().meta({ description: 'The ticket as found; null when removed.' }),
    }),
    WEBHOOK_EVENT_LABELS['ticket.synced'],
  ),
  'tickets.synced': envelope(
    'tickets.synced',
    ticketsSyncedDataSchema,
    `${WEBHOOK_EVENT_LABELS['tickets.synced']}: at most ${WEBHOOK_TICKETS_PER_DELIVERY} tickets a delivery.`,
  ),
  'credits.changed': envelope(
    'credits.changed',
    z.object({
      balance: z.number().int().meta({ description: 'The balance now.' }),
      change: z.number().int().meta({ description: 'By how much it changed (negative: spent or taken back).' }),
      reason: z.string().meta({
        description:
          '`purchase`, `links_paid`, `links_not_made` (a refund of links not made), `set_by_admin`, or why a ' +
          'payment was taken back (`refund`, `dispute_lost`).',
      }),
    }),
    WEBHOOK_EVENT_LABELS['credits.changed'],
  ),
  [WEBHOOK_TEST_EVENT]: envelope(
    WEBHOOK_TEST_EVENT,
    z.object({ endpoint_id: z.uuid(), message: z.string() }),
    'A test event, sent by hand ("Send a test event") to check the endpoint receives and verifies deliveries.',
  ),
}));

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
