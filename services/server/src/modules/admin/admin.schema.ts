import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Read model: the streams that hold each user's history besides the ones named after the user (credits): the wallet
 * accounts they linked and the tickets they distributed. The history at a moment is folded from these streams.
 */
export const userStreams = pgTable(
  'user_streams',
  {
    userId: uuid('user_id').notNull(),
    streamId: text('stream_id').notNull(),
    /** `wallet-account` or `ticket-distribution`. */
    kind: text('kind').notNull(),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.streamId] }), index('user_streams_user_time_idx').on(t.userId, t.firstAt)],
);
