import { bigint, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

// Tables of credits: the balances read model.

export const creditBalances = pgTable('credit_balances', {
  userId: uuid('user_id').primaryKey(),
  balance: bigint('balance', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
