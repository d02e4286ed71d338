import type { ApiKeyScope } from '@seatlink/contracts';
import type { DomainEvent } from '../../shared/event-sourcing/decider.js';

/**
 * The user made an API key. `keyHash`: the SHA-256 of the key (32 random bytes: a hash nobody can reverse), what a
 * call's bearer is looked up by; the key itself is shown once and kept nowhere. `prefix`: its first characters.
 */
export type ApiKeyCreated = DomainEvent<
  'ApiKeyCreated',
  { userId: string; keyId: string; name: string; scopes: ApiKeyScope[]; keyHash: string; prefix: string; at: string }
>;
/** The user revoked an API key: it works no more. */
export type ApiKeyRevoked = DomainEvent<'ApiKeyRevoked', { userId: string; keyId: string; at: string }>;

export type ApiKeyEvent = ApiKeyCreated | ApiKeyRevoked;

/** One stream per user: the keys they hold, so the limit on their number holds under concurrent requests. */
export const apiKeysStream = (userId: string) => `api-keys-${userId}`;
