import type { ApiKeyScope } from '@seatlink/contracts';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Read model: every API key made (ApiKeyCreated), and when it was revoked (ApiKeyRevoked). */
export const apiKeys = pgTable(
  'api_keys',
  {
    keyId: uuid('key_id').primaryKey(),
    userId: uuid('user_id').notNull(),
    name: text('name').notNull(),
    scopes: jsonb('scopes').$type<ApiKeyScope[]>().notNull(),
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_hash_idx').on(t.keyHash), index('api_keys_user_idx').on(t.userId)],
);

/**
 * Operational state (not a read model: a rebuild leaves it): when each key was last used, and from where; and when it
 * was revoked, written by the revoking request itself, so the key stops at its answer however far the read model lags.
 */
export const apiKeyUses = pgTable('api_key_uses', {
  keyId: uuid('key_id').primaryKey(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  lastIp: text('last_ip'),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});
