import type { WebhookEventType } from '@seatlink/contracts';
import type { DomainEvent } from '../../shared/event-sourcing/decider.js';

/**
 * The user added a webhook endpoint. `secretSealed`: its signing secret encrypted at rest (AES-256-GCM with the
 * server's token key): deliveries are signed with it, so it is kept, never in clear. `secretPrefix`: its first
 * characters, to tell secrets apart.
 */
export type WebhookEndpointCreated = DomainEvent<
  'WebhookEndpointCreated',
  {
    userId: string;
    endpointId: string;
    url: string;
    events: WebhookEventType[];
    secretSealed: string;
    secretPrefix: string;
    at: string;
  }
>;
/** The owner changed where an endpoint is or what it is sent: `url` and `events` as they are now. */
export type WebhookEndpointUpdated = DomainEvent<
  'WebhookEndpointUpdated',
  { userId: string; endpointId: string; url: string; events: WebhookEventType[]; at: string }
>;
/**
 * Deliveries to the endpoint stop (`by` its owner, or by Seatlink after it failed for too long: `reason` says how).
 * What was pending waits until it is enabled again.
 */
export type WebhookEndpointDisabled = DomainEvent<
  'WebhookEndpointDisabled',
  { userId: string; endpointId: string; by: 'owner' | 'seatlink'; reason: string | null; at: string }
>;
export type WebhookEndpointEnabled = DomainEvent<
  'WebhookEndpointEnabled',
  { userId: string; endpointId: string; at: string }
>;
/**
 * A new signing secret: from now on deliveries are signed with it. `previousSecretUntil`: until when the secret it
 * replaces still signs beside it (a grace its owner chose, so their endpoint can take the new one without refusing a
 * delivery; docs/reference.md "Webhooks"); null or absent (events before grace periods): it stopped signing at once.
 * The time is recorded, not the grace, so whenever the event is applied (a rebuild) the old secret stops at the same
 * moment.
 */
export type WebhookSecretRolled = DomainEvent<
  'WebhookSecretRolled',
  {
    userId: string;
    endpointId: string;
    secretSealed: string;
    secretPrefix: string;
    previousSecretUntil?: string | null;
    at: string;
  }
>;
/** The endpoint is gone: nothing more is sent to it. */
export type WebhookEndpointDeleted = DomainEvent<
  'WebhookEndpointDeleted',
  { userId: string; endpointId: string; at: string }
>;

export type WebhookEvent =
  | WebhookEndpointCreated
  | WebhookEndpointUpdated
  | WebhookEndpointDisabled
  | WebhookEndpointEnabled
  | WebhookSecretRolled
  | WebhookEndpointDeleted;

export const WEBHOOK_EVENT_NAMES = [
  'WebhookEndpointCreated',
  'WebhookEndpointUpdated',
  'WebhookEndpointDisabled',
  'WebhookEndpointEnabled',
  'WebhookSecretRolled',
  'WebhookEndpointDeleted',
] as const satisfies ReadonlyArray<WebhookEvent['type']>;

/** One stream per user: their endpoints, so the limit on their number holds under concurrent requests. */
export const webhooksStream = (userId: string) => `webhooks-${userId}`;
