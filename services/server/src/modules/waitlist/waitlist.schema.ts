import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// Tables of the waitlist: its read model.

export const waitlistEntries = pgTable('waitlist_entries', {
  email: text('email').primaryKey(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
});
