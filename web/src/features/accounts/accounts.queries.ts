import { queryOptions } from '@tanstack/react-query';
import type { Ticket, TicketDistribution } from '@seatlink/contracts';
import { ApiError } from '../../lib/api-client';
import type { TicketList } from '../../lib/ticket-list';
import { getAccountTickets } from './api/get-account-tickets';

/** The accounts' toasts and fallbacks (docs/reference.md "Fallback texts", "Success and empty texts"). */
export const ACCOUNT_MESSAGES = {
  connected: 'Google account successfully connected',
  addOneFailed: 'Failed to add account',
  addManyFailed: 'Failed to add accounts',
  fetchFailed: 'Failed to fetch accounts',
  deleted: 'Account successfully deleted',
  deleteFailed: 'Failed to delete account',
  // The re-authentication call's own fallback.
  reauthFailed: 'Failed to re-authenticate account',
  reauthenticated: 'Account re-authenticated',
  ticketsFetchFailed: 'Failed to fetch account tickets',
} as const;

/**
 * The accounts feature's queries: the account list itself is lib/account-list.ts (the tickets overview names accounts
 * too); an account's detail and tickets are keyed by its id, so a page never shows another account's answer.
 */
export const ACCOUNT_TICKETS_KEY = ['accounts', 'tickets'] as const;
export const accountTicketsKey = (accountId: string) => [...ACCOUNT_TICKETS_KEY, accountId] as const;

export const accountTicketsQuery = (accountId: string) =>
  queryOptions({
    queryKey: accountTicketsKey(accountId),
    queryFn: () => getAccountTickets(accountId),
  });

/** A missing account, or an address that is no account id at all (400): not found. */
export function isAccountNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/** What the account page needs to know of a ticket beyond the account detail: its live link and whether it is a duplicate. */
export interface TicketLinkInfo {
  is_duplicate: boolean;
  distribution: TicketDistribution | null;
}

const linksOf = new WeakMap<readonly Ticket[], Readonly<Record<string, TicketLinkInfo>>>();

/**
 * The user's ticket list (lib/ticket-list.ts, shared with the overview, kept current by live pushes) as the link of
 * each ticket, by ticket id: the account page's `select`. Derived once per version of the list.
 */
export function ticketLinks(list: TicketList): Readonly<Record<string, TicketLinkInfo>> {
  let links = linksOf.get(list.tickets);
  if (!links) {
    const byTicket: Record<string, TicketLinkInfo> = {};
    for (const t of list.tickets) byTicket[t.id] = { is_duplicate: t.is_duplicate, distribution: t.distribution };
    links = byTicket;
    linksOf.set(list.tickets, links);
  }
  return links;
}
