import { createHash } from 'node:crypto';
import type { DomainEvent } from '../../shared/event-sourcing/decider.js';

/** A pass as Seatlink keeps it on a ticket (what the wallet showed). */
export interface PassDetails {
  passId: string;
  barcode: string;
  title: string;
  subtitle: string | null;
  logo: string | null;
  /** Absent in events recorded before the provider gave one. */
  saveUrl?: string | null;
  venueName: string | null;
  section: string | null;
  row: string | null;
  seat: string | null;
  nextGame: string | null;
  nextGameDate: string | null;
}

export type WalletAccountLinked = DomainEvent<
  'WalletAccountLinked',
  {
    accountId: string;
    userId: string;
    email: string;
    providerAccountId: string;
    firstName: string;
    lastName: string;
    displayName: string;
    at: string;
  }
>;
export type WalletAccountReauthenticated = DomainEvent<
  'WalletAccountReauthenticated',
  { accountId: string; at: string }
>;
/** The provider refused the account's sign-in: it needs the user to authenticate again. */
export type WalletAccountAuthFailed = DomainEvent<
  'WalletAccountAuthFailed',
  { accountId: string; reason: string; at: string }
>;
/**
 * The passes the wallet sent that a sync had to leave out (unusable even once their text was cleaned), as they stand
 * after that sync: recorded when they change, so an empty list says none is left out any more. At most
 * MAX_SKIPPED_LISTED are listed; `total` counts them all.
 */
export type WalletPassesSkipped = DomainEvent<
  'WalletPassesSkipped',
  { accountId: string; skipped: SkippedPassRecord[]; total: number; at: string }
>;
export interface SkippedPassRecord {
  /** The pass's id as far as it could be told (cleaned), or null. */
  passId: string | null;
  /** The field and what is wrong with it. */
  reason: string;
}
export const MAX_SKIPPED_LISTED = 50;
/** A sync gave up (its retries spent, or a failure other than the wallet service being down); `reason` is for the user. */
export type WalletAccountSyncFailed = DomainEvent<
  'WalletAccountSyncFailed',
  { accountId: string; reason: string; at: string }
>;
/** A sync went through after one had given up: the account's sync error is cleared. */
export type WalletAccountSyncRecovered = DomainEvent<'WalletAccountSyncRecovered', { accountId: string; at: string }>;
/**
 * A sync finished recording what it changed: the ticket events since the account's previous WalletAccountSynced are
 * complete (the webhooks send them as batches then, docs/architecture.md "Workers and jobs"). Recorded by the last
 * part of a sync that changed tickets, or of the first sync after one that stopped half-way; a sync that changes
 * nothing records none.
 */
export type WalletAccountSynced = DomainEvent<'WalletAccountSynced', { accountId: string; userId: string; at: string }>;
export type WalletAccountDeleted = DomainEvent<
  'WalletAccountDeleted',
  { accountId: string; userId: string; at: string }
>;
export type TicketDiscovered = DomainEvent<
  'TicketDiscovered',
  { accountId: string; userId: string; ticketId: string; dedupeKey: string; pass: PassDetails; at: string }
>;
export type TicketChanged = DomainEvent<
  'TicketChanged',
  { accountId: string; userId: string; ticketId: string; pass: PassDetails; at: string }
>;
export type TicketGone = DomainEvent<
  'TicketGone',
  { accountId: string; userId: string; ticketId: string; dedupeKey: string; at: string }
>;

export type WalletAccountEvent =
  | WalletAccountLinked
  | WalletAccountReauthenticated
  | WalletAccountAuthFailed
  | WalletPassesSkipped
  | WalletAccountSyncFailed
  | WalletAccountSyncRecovered
  | WalletAccountSynced
  | WalletAccountDeleted
  | TicketDiscovered
  | TicketChanged
  | TicketGone;

/** One stream per linked account: it decides what a sync changed, and whether the account is in error or gone. */
export const walletAccountStream = (accountId: string) => `wallet-account-${accountId}`;

/** The claim on one wallet account by one user: a user links an external account once. */
export type WalletLinkClaimed = DomainEvent<'WalletLinkClaimed', { userId: string; email: string; accountId: string }>;
export type WalletLinkReleased = DomainEvent<
  'WalletLinkReleased',
  { userId: string; email: string; accountId: string }
>;
export type WalletLinkEvent = WalletLinkClaimed | WalletLinkReleased;
export const walletLinkStream = (userId: string, email: string) => `wallet-link-${userId}-${email.toLowerCase()}`;

/** Who holds a pass: the first ticket to claim it is the master, later ones are its duplicates. */
export type PassClaimed = DomainEvent<
  'PassClaimed',
  { dedupeKey: string; ticketId: string; accountId: string; userId: string; at: string }
>;
export type PassReleased = DomainEvent<'PassReleased', { dedupeKey: string; ticketId: string; at: string }>;
export type PassEvent = PassClaimed | PassReleased;

/** The same pass in two accounts has the same barcode (or, without one, the same pass id). */
export const dedupeKeyOf = (pass: { passId: string; barcode: string }) =>
  pass.barcode.trim() ? `barcode:${pass.barcode.trim()}` : `id:${pass.passId}`;
export const passStream = (dedupeKey: string) =>
  `pass-${createHash('sha256').update(dedupeKey).digest('hex').slice(0, 40)}`;
