import { z } from 'zod';
import type { MaybePending } from './identity.js';
import { emailAddress, hasForbiddenCharacters, notAllowedMessage } from './text.js';
import { schema } from './schema.js';

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
export interface Account {
  id: string;
  user_id: string;
  first_name: string;
  last_name: string;
  name: string;
  email: string;
  last_synced_at: string | null;
  createdAt: string;
  updatedAt: string;
  /** The wallet service refused the account's sign-in: its owner must sign in again (`last_error` says why). */
  in_error_state: boolean;
  last_error: string | null;
  /** Why the last sync gave up (the wallet service out of reach for all its tries, or another failure); null once a
   * sync goes through. The account keeps syncing meanwhile. */
  sync_error: string | null;
  /** Passes the wallet sent that the last sync had to leave out (unusable even once cleaned). */
  skipped_passes: number;
  /** Tickets of the account now (gone ones not counted), and how many of them are distributed. */
  ticket_count: number;
  distributed_count: number;
  /** True while a sync of the account runs. */
  syncing: boolean;
}

export interface AccountsResponse {
  accounts: Account[];
}

/** POST /v1/accounts, POST /v1/accounts/{id}/reauth: the account. */
export type AccountResponse = Account & MaybePending;

/** One entry of POST /v1/accounts/batch: the account, or why it was not linked. */
export interface BatchLinkResult {
  email: string;
  account?: Account;
  error?: { message: string; code: string };
}
export interface BatchLinkResponse {
  results: BatchLinkResult[];
  linked: number;
  failed: number;
}

/** A ticket as an account's own page lists it (docs/reference.md "Wallet account"). */
export interface AccountTicket {
  id: string;
  event_name: string;
  section: string | null;
  row: string | null;
  seat: string | null;
  is_distributed: boolean;
}

/** GET /accounts/{id}/tickets. */
export interface AccountTicketsResponse {
  account: Account;
  tickets: AccountTicket[];
}

/** GET /v1/admin/accounts: every account with its owner and tickets (docs/reference.md "Wallet account"). */
export interface AdminAccount extends Account {
  user: { email: string };
  tickets: AccountTicket[];
}
export interface AdminAccountsResponse {
  accounts: AdminAccount[];
}

/** Error codes of the account calls. */
export const ACCOUNT_ERRORS = {
  WALLET_AUTH_FAILED: 'WALLET_AUTH_FAILED',
  WALLET_UNAVAILABLE: 'WALLET_UNAVAILABLE',
  WALLET_RATE_LIMITED: 'WALLET_RATE_LIMITED',
  ACCOUNT_ALREADY_LINKED: 'ACCOUNT_ALREADY_LINKED',
  ACCOUNT_NOT_FOUND: 'ACCOUNT_NOT_FOUND',
} as const;
