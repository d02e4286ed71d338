import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';

// Tables of identity: the users read model, and sessions and e-mailed link tokens (operational state, not events).

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    isBanned: boolean('is_banned').notNull().default(false),
    emailVerified: boolean('email_verified').notNull().default(false),
    distributionCost: integer('distribution_cost'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastLoggedInAt: timestamp('last_logged_in_at', { withTimezone: true }),
  },
  (t) => [unique('users_email_key').on(t.email), index('users_created_at_idx').on(t.createdAt)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the session token; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** When its user last confirmed it is them (a code, or the password) after signing in; null: only the sign-in. */
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * Single-use tokens of e-mailed links (verification, password reset, sign-in) and of sign-ins waiting for their
 * second factor (`mfa`), stored only as their SHA-256.
 */
export const authTokens = pgTable(
  'auth_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    kind: text('kind', { enum: ['verify_email', 'reset_password', 'sign_in', 'mfa'] }).notNull(),
    userId: uuid('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('auth_tokens_user_idx').on(t.userId, t.kind)],
);

/**
 * Operational state of each user's authenticator app (not a read model; TotpEnabled and TotpDisabled are the facts):
 * its secret (base32, the HMAC key codes are checked with, so it cannot be kept as a hash), whether its first code
 * confirmed it, and the time step of the last code used, so that no code works twice.
 */
export const userTotp = pgTable('user_totp', {
  userId: uuid('user_id').primaryKey(),
  secret: text('secret').notNull(),
  confirmed: boolean('confirmed').notNull().default(false),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }).notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * Operational memory of the devices each user signed in from (browser, system and model, without versions): a sign-in
 * from one not seen before is told to the user (SignInFromNewDevice).
 */
export const userDevices = pgTable(
  'user_devices',
  {
    userId: uuid('user_id').notNull(),
    deviceKey: text('device_key').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceKey] })],
);

/**
 * The challenges given to browsers for a passkey ceremony (not a read model): each answers once, within its time, for
 * what it was given for (`purpose`) and, when it names one, for that user. Kept as their SHA-256.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challengeHash: text('challenge_hash').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'sign_in', 'second_factor', 'step_up'] }).notNull(),
    userId: uuid('user_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('webauthn_challenges_expiry_idx').on(t.expiresAt),
    index('webauthn_challenges_user_idx').on(t.userId, t.purpose),
  ],
);

/**
 * Operational state of each passkey (not a read model; PasskeyAdded and PasskeyRemoved are the facts): whose it is —
 * a credential id is one account's only (WebAuthn §7.1 step 22: a second registration of it, by anyone, is refused),
 * the signature counter it last showed (a copied authenticator shows one not above it) and when it was last used.
 */
export const passkeyUses = pgTable('passkey_uses', {
  credentialId: text('credential_id').primaryKey(),
  userId: uuid('user_id').notNull(),
  counter: bigint('counter', { mode: 'number' }).notNull().default(0),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
});
