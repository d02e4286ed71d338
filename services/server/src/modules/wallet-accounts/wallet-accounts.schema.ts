import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Tables of wallet accounts and tickets: four read models (built only by projections; `npm run replay` rebuilds them)
// and two tables of operational state (the provider's token, the sync's progress), which are not events. `tickets`,
// `pass_groups` and `wallet_accounts` are versioned (infra/db/read-model-versions.ts): GET /v1/tickets answers what
// changed since a version.

/** Read model: the linked wallet accounts. */
export const walletAccounts = pgTable(
  'wallet_accounts',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    displayName: text('display_name').notNull(),
    providerAccountId: text('provider_account_id').notNull(),
    /** The provider refused the account's sign-in: its owner must sign in again (lastError says why). */
    inErrorState: boolean('in_error_state').notNull().default(false),
    lastError: text('last_error'),
    /** Why the last sync gave up, until a sync goes through. */
    syncError: text('sync_error'),
    /** Passes the wallet sent that the last sync had to leave out. */
    skippedPasses: integer('skipped_passes').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    /**
     * The transaction that wrote the row or its e-mail (what a ticket's answer reads from it), stamped by the database:
     * the tickets an account holds are answered as changed when their account's row comes after them.
     */
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('wallet_accounts_user_idx').on(t.userId)],
);

/** Read model: the tickets the accounts hold now (a ticket that left its wallet leaves the table). */
export const tickets = pgTable(
  'tickets',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id').notNull(),
    userId: uuid('user_id').notNull(),
    passId: text('pass_id').notNull(),
    /** What makes two tickets the same pass (its barcode, or its id when it has none). */
    dedupeKey: text('dedupe_key').notNull(),
    title: text('title').notNull(),
    subtitle: text('subtitle'),
    logo: text('logo'),
    saveUrl: text('save_url'),
    venueName: text('venue_name'),
    section: text('section'),
    row: text('row'),
    seat: text('seat'),
    nextGame: text('next_game'),
    nextGameDate: text('next_game_date'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    /** The transaction that last wrote the row, stamped by the database on every write (whatever the row says). */
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    // A user's tickets in first-seen order (the pages of GET /v1/tickets), and those changed since a version.
    index('tickets_user_seen_idx').on(t.userId, t.createdAt, t.id),
    index('tickets_user_version_idx').on(t.userId, t.version),
    index('tickets_account_idx').on(t.accountId),
    index('tickets_dedupe_idx').on(t.dedupeKey),
  ],
);

/**
 * Read model: the tickets that left (their wallet no longer lists them, their account was deleted), with the version
 * they left at, written by the database as `tickets` loses the row: what GET /v1/tickets?since= answers as `removed`.
 * Kept for REMOVED_TICKETS_KEPT_DAYS (then purged, raising its floor: an older version is answered in full).
 */
export const removedTickets = pgTable(
  'removed_tickets',
  {
    ticketId: uuid('ticket_id').primaryKey(),
    userId: uuid('user_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('removed_tickets_user_version_idx').on(t.userId, t.version),
    index('removed_tickets_removed_idx').on(t.removedAt),
  ],
);

/** Read model: who holds each pass, in claim order; the first is the master, the others duplicates. */
export const passGroups = pgTable(
  'pass_groups',
  {
    dedupeKey: text('dedupe_key').primaryKey(),
    masterTicketId: uuid('master_ticket_id'),
    /** Ticket ids in the order they claimed the pass. */
    holders: jsonb('holders').$type<string[]>().notNull(),
    /** As `tickets.version`: a change of who holds the pass changes its tickets' duplicate status. */
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('pass_groups_version_idx').on(t.version)],
);

/** Operational: the provider's access token of each account, encrypted (never the wallet password). */
export const walletCredentials = pgTable('wallet_credentials', {
  accountId: uuid('account_id').primaryKey(),
  sealedToken: text('sealed_token').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** Operational: each account's last sync, and the lease of a sync under way (one per account at a time). */
export const walletSyncState = pgTable('wallet_sync_state', {
  accountId: uuid('account_id').primaryKey(),
  lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
  runningUntil: timestamp('running_until', { withTimezone: true }),
  lastSyncError: text('last_sync_error'),
  /** Sync attempts that failed in a row (0 after one that went through): the sync gives up at SYNC_GIVE_UP_AFTER. */
  failedAttempts: integer('failed_attempts').notNull().default(0),
});
