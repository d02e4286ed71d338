import { boolean, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

// Tables of invite codes: their read model.

export const inviteCodes = pgTable(
  'invite_codes',
  {
    id: uuid('id').primaryKey(),
    code: text('code').notNull(),
    used: integer('used').notNull().default(0),
    maxUses: integer('max_uses').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [unique('invite_codes_code_key').on(t.code)],
);
