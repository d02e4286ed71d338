import { z } from 'zod';
import { maybePendingShape } from './identity.js';
import { emailAddress, hasForbiddenCharacters, notAllowedMessage } from './text.js';
import { named, schema, timestampSchema } from './schema.js';

/** The password of a wallet account: only passed on to the wallet provider, never stored. */
const walletPassword = schema(() =>
  z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(256, 'Password is too long')
    .refine((value) => !hasForbiddenCharacters(value), notAllowedMessage('Password')),
);

/**
 * POST /v1/accounts and POST /v1/accounts/{id}/reauth (docs/reference.md "API calls"): the external account's e-mail
 * and password.
 */
export const linkAccountRequestSchema = schema(() =>
  z.object({
    email: emailAddress('Please enter a valid email address'),
    password: walletPassword,
  }),
);
export type LinkAccountRequest = z.infer<typeof linkAccountRequestSchema>;

/** Accounts one batch may link. */
export const MAX_BATCH_ACCOUNTS = 20;

/** POST /v1/accounts/batch: several accounts at once; each is linked or refused on its own. */
export const batchLinkRequestSchema = schema(() =>
  z.object({
    accounts: z
      .array(linkAccountRequestSchema, { error: 'accounts must be a list of { email, password }' })
      .min(1, 'Add at least one account')
      .max(MAX_BATCH_ACCOUNTS, `At most ${MAX_BATCH_ACCOUNTS} accounts at once`),
  }),
);
export type BatchLinkRequest = z.infer<typeof batchLinkRequestSchema>;

export const accountIdParamSchema = schema(() => z.uuid({ error: 'Account id must be a UUID' }));

/** docs/reference.md "Wallet account", with what the accounts overview shows of it. */
export const accountSchema = schema(() =>
  named(
    'Account',
    z.object({
      id: z.uuid(),
      user_id: z.uuid(),
      first_name: z.string(),
      last_name: z.string(),
      name: z.string(),
      email: z.string(),
      /** When a sync last went through; null before the first. */
      last_synced_at: timestampSchema.nullable(),
      createdAt: timestampSchema,
      updatedAt: timestampSchema,
      /** The wallet service refused the account's sign-in: its owner must sign in again (`last_error` says why). */
      in_error_state: z.boolean(),
      last_error: z.string().nullable(),
      /** Why the last sync gave up (the wallet service out of reach for all its tries, or another failure); null once a
       * sync goes through. The account keeps syncing meanwhile. */
      sync_error: z.string().nullable(),
      /** Passes the wallet sent that the last sync had to leave out (unusable even once cleaned). */
      skipped_passes: z.int().min(0),
      /** Tickets of the account now (gone ones not counted), and how many of them are distributed. */
      ticket_count: z.int().min(0),
      distributed_count: z.int().min(0),
      /** True while a sync of the account runs. */
      syncing: z.boolean(),
    }),
  ),
);
export type Account = z.infer<typeof accountSchema>;

/** GET /v1/accounts: the user's accounts, oldest first. */
export const accountsResponseSchema = schema(() =>
  named('AccountsResponse', z.object({ accounts: z.array(accountSchema) })),
);
export type AccountsResponse = z.infer<typeof accountsResponseSchema>;

/** POST /v1/accounts, POST /v1/accounts/{id}/reauth: the account. */
export const accountResponseSchema = schema(() => named('AccountResponse', accountSchema.extend(maybePendingShape)));
export type AccountResponse = z.infer<typeof accountResponseSchema>;

/** Why an account of a batch was not linked: the code and message a request for it alone would get. */
export const batchLinkErrorSchema = schema(() =>
  named('BatchLinkError', z.object({ message: z.string(), code: z.string() })),
);
export type BatchLinkError = z.infer<typeof batchLinkErrorSchema>;

/** One entry of POST /v1/accounts/batch: the account, or why it was not linked. */
export const batchLinkResultSchema = schema(() =>
  named(
    'BatchLinkResult',
    z.object({
      /** The e-mail as the request gave it. */
      email: z.string(),
      /** The account linked (absent when it was not). */
      account: accountSchema.optional(),
      /** Why it was not linked (absent when it was). */
      error: batchLinkErrorSchema.optional(),
    }),
  ),
);
export type BatchLinkResult = z.infer<typeof batchLinkResultSchema>;

/** POST /v1/accounts/batch: each account of the request in its order, and how many were linked or not. */
export const batchLinkResponseSchema = schema(() =>
  named(
    'BatchLinkResponse',
    z.object({ results: z.array(batchLinkResultSchema), linked: z.int().min(0), failed: z.int().min(0) }),
  ),
);
export type BatchLinkResponse = z.infer<typeof batchLinkResponseSchema>;

/** A ticket as an account's own page lists it (docs/reference.md "Wallet account"). */
export const accountTicketSchema = schema(() =>
  named(
    'AccountTicket',
    z.object({
      id: z.uuid(),
      /** The ticket's title. */
      event_name: z.string(),
      section: z.string().nullable(),
      row: z.string().nullable(),
      seat: z.string().nullable(),
      /** It has a live link. */
      is_distributed: z.boolean(),
    }),
  ),
);
export type AccountTicket = z.infer<typeof accountTicketSchema>;

/** GET /v1/accounts/{id}/tickets. */
export const accountTicketsResponseSchema = schema(() =>
  named('AccountTicketsResponse', z.object({ account: accountSchema, tickets: z.array(accountTicketSchema) })),
);
export type AccountTicketsResponse = z.infer<typeof accountTicketsResponseSchema>;

/** GET /v1/admin/accounts: every account with its owner and tickets (docs/reference.md "Wallet account"). */
export const adminAccountSchema = schema(() =>
  named(
    'AdminAccount',
    accountSchema.extend({
      /** The account's owner. */
      user: z.object({ email: z.string() }),
      tickets: z.array(accountTicketSchema),
    }),
  ),
);
export type AdminAccount = z.infer<typeof adminAccountSchema>;
export const adminAccountsResponseSchema = schema(() =>
  named('AdminAccountsResponse', z.object({ accounts: z.array(adminAccountSchema) })),
);
export type AdminAccountsResponse = z.infer<typeof adminAccountsResponseSchema>;

/** Error codes of the account calls. */
export const ACCOUNT_ERRORS = {
  WALLET_AUTH_FAILED: 'WALLET_AUTH_FAILED',
  WALLET_UNAVAILABLE: 'WALLET_UNAVAILABLE',
  WALLET_RATE_LIMITED: 'WALLET_RATE_LIMITED',
  ACCOUNT_ALREADY_LINKED: 'ACCOUNT_ALREADY_LINKED',
  ACCOUNT_NOT_FOUND: 'ACCOUNT_NOT_FOUND',
} as const;
