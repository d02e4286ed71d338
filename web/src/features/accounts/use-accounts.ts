import { useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { Account, LinkAccountRequest } from '@seatlink/contracts';
import { accountListQuery } from '../../lib/account-list';
import { querySlice } from '../../lib/query-slice';
import type { DistributionSettings } from '../../lib/distribution';
import { ticketListQuery } from '../../lib/ticket-list';
import { generateLink, linkAccounts, reauthenticate, removeAccount } from './account-actions';
import { useAccountSyncsStore } from './account-syncs.store';
import {
  ACCOUNT_MESSAGES,
  accountTicketsQuery,
  isAccountNotFound,
  ticketLinks,
  type TicketLinkInfo,
} from './accounts.queries';

const NO_ACCOUNTS: readonly Account[] = [];

/**
 * The accounts slice (accounts, loading, error; docs/reference.md "Screen state") from the account list query, with the
 * progress of the syncs running now. A failed re-read keeps the list (it is only out of date): `error` is set only
 * while there is none.
 */
export function useAccounts() {
  const query = useQuery(accountListQuery);
  const syncs = useAccountSyncsStore((s) => s.syncs);
  const accounts = query.data?.accounts;
  useEffect(() => {
    if (accounts) useAccountSyncsStore.getState().keepRunning(accounts);
  }, [accounts]);
  const { loading, loaded, error } = querySlice(query, ACCOUNT_MESSAGES.fetchFailed);
  return { accounts: accounts ?? NO_ACCOUNTS, loading, loaded, error, retry: query.refetch, syncs };
}

/** An account's detail and tickets (GET /v1/accounts/{id}/tickets); `notFound` for a missing account. */
export function useAccountTickets(accountId: string) {
  const query = useQuery(accountTicketsQuery(accountId));
  const { data, error } = querySlice(query, ACCOUNT_MESSAGES.ticketsFetchFailed);
  return { data: data ?? null, notFound: isAccountNotFound(query.error), error, retry: query.refetch };
}

const NO_LINKS: Readonly<Record<string, TicketLinkInfo>> = {};

/** Each ticket's live link, by ticket id, from the user's ticket list (shared with the overview). */
export function useTicketLinks() {
  return useQuery({ ...ticketListQuery, select: ticketLinks }).data ?? NO_LINKS;
}

export function useLinkAccounts() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (accounts: LinkAccountRequest[]) => linkAccounts(client, accounts) }).mutateAsync;
}

export function useReauthenticate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: LinkAccountRequest }) => reauthenticate(client, id, body),
  }).mutateAsync;
}

export function useRemoveAccount() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (id: string) => removeAccount(client, id) }).mutateAsync;
}

const GENERATE = ['accounts', 'generate-link'] as const;

interface GenerateVariables {
  accountId: string;
  ticketId: string;
  settings: DistributionSettings;
}

/** One ticket's link from the account page, and the tickets whose link is being made now. */
export function useGenerateLink() {
  const client = useQueryClient();
  const generate = useMutation({
    mutationKey: GENERATE,
    mutationFn: ({ accountId, ticketId, settings }: GenerateVariables) =>
      generateLink(client, accountId, ticketId, settings),
  }).mutateAsync;
  const running = useMutationState({
    filters: { mutationKey: GENERATE, status: 'pending' },
    select: (mutation) => (mutation.state.variables as GenerateVariables | undefined)?.ticketId ?? '',
  });
  const distributing = useMemo(() => new Set(running), [running]);
  return { generate, distributing };
}
