import { z } from 'zod';
import { named, schema, timestampSchema } from './schema.js';

/** A subscription of the event pipeline: how far it has read the feed. */
export const subscriptionHealthSchema = schema(() =>
  named(
    'SubscriptionHealth',
    z.object({
      name: z.string(),
      kind: z.enum(['projection', 'reaction']),
      /** The feed position it has read up to; null before its first. */
      checkpoint: z.string().nullable(),
      /** About how many events it is behind the head of the feed. */
      lag: z.int().min(0),
      parked: z.int().min(0),
    }),
  ),
);
export type SubscriptionHealth = z.infer<typeof subscriptionHealthSchema>;

/** GET /health: the status alone (503 while `degraded`); every figure is for admins, at GET /v1/admin/health. */
export const healthStatusResponseSchema = schema(() =>
  named('HealthStatusResponse', z.object({ status: z.enum(['ok', 'degraded']) })),
);
export type HealthStatusResponse = z.infer<typeof healthStatusResponseSchema>;

/** GET /v1/admin/health (GET /health answers only `status`). */
export const healthResponseSchema = schema(() =>
  named(
    'HealthResponse',
    z.object({
      status: z.enum(['ok', 'degraded']),
      database: z.enum(['up', 'down']),
      redis: z.enum(['up', 'down', 'not configured']),
      /**
       * The circuit breakers of this process's Redis clients, taken together: `open` while any fails its calls at once
       * (Redis did not answer one in time a moment ago), `half-open` while one's probe waits for Redis to answer.
       */
      redisBreaker: z.enum(['closed', 'open', 'half-open', 'not configured']),
      /** Why it is degraded; empty when ok. */
      problems: z.array(z.string()),
      /** The read replicas (DATABASE_READ_URL), each with its lag; empty when none is configured. */
      replicas: z.array(
        z.object({
          /** Its host and port. */
          name: z.string(),
          /** Serving reads now; false while it does not answer or is behind past the bound. */
          in_use: z.boolean(),
          /** Seconds since the last change it replayed while behind (0: caught up); null when it did not answer. */
          lag_seconds: z.number().min(0).nullable(),
          /** The primary's write-ahead log it has not replayed yet, in bytes; null when it did not answer. */
          lag_bytes: z.number().int().min(0).nullable(),
          /** Why it serves no read; null while it does. */
          problem: z.string().nullable(),
        }),
      ),
      /** The event pipeline; null when it could not be read in time. */
      feed: z
        .object({
          /** The feed's last position; null while it holds no event. */
          head: z.string().nullable(),
          subscriptions: z.array(subscriptionHealthSchema),
          /** The process that runs the subscriptions, and how long ago it last said so. */
          host: z.object({ owner: z.string(), heartbeatAgeSeconds: z.int().min(0) }).nullable(),
          oldestTransactionSeconds: z.int().min(0).nullable(),
          /** How long the oldest committed event the feed cannot show yet has waited; null when none waits. */
          heldBackSeconds: z.int().min(0).nullable(),
          /** Whether a process holds the subscriptions' lock now. */
          hostHoldsLock: z.boolean(),
          parked: z.int().min(0),
        })
        .nullable(),
    }),
  ),
);
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** One event a subscription gave up on (GET /v1/admin/parked-events). */
export const parkedEventViewSchema = schema(() =>
  named(
    'ParkedEventView',
    z.object({
      id: z.uuid(),
      subscription: z.string(),
      event_id: z.uuid(),
      event_type: z.string(),
      stream_id: z.string(),
      position: z.string(),
      error: z.string(),
      attempts: z.int().min(0),
      parked_at: timestampSchema,
      status: z.enum(['parked', 'retried', 'skipped']),
      resolved_at: timestampSchema.nullable(),
      /** The admin who retried or skipped it (their user id). */
      resolved_by: z.string().nullable(),
    }),
  ),
);
export type ParkedEventView = z.infer<typeof parkedEventViewSchema>;

/** GET /v1/admin/parked-events?status=: the parked events (oldest first), or those retried or skipped. */
export const parkedEventsResponseSchema = schema(() =>
  named('ParkedEventsResponse', z.object({ parked_events: z.array(parkedEventViewSchema) })),
);
export type ParkedEventsResponse = z.infer<typeof parkedEventsResponseSchema>;

/** POST /v1/admin/parked-events/{id}/retry and /skip: the event as the retry or skip left it. */
export const parkedEventResponseSchema = schema(() =>
  named('ParkedEventResponse', z.object({ parked_event: parkedEventViewSchema })),
);
export type ParkedEventResponse = z.infer<typeof parkedEventResponseSchema>;
