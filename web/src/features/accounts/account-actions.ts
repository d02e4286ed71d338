import type { QueryClient } from '@tanstack/react-query';
import type { Account, AccountsResponse, BatchLinkResult, LinkAccountRequest } from '@seatlink/contracts';
import { ACCOUNT_LIST_KEY } from '../../lib/account-list';
import { errorMessage, newIdempotencyKey, withRetries } from '../../lib/api-client';
import { useCreditsStore } from '../../lib/credits.store';
import { distributeBody, DISTRIBUTION_TEXTS, madeLink, type DistributionSettings } from '../../lib/distribution';
import { liveRefresh } from '../../lib/live-refresh';
import { useSessionStore } from '../../lib/session.store';
import { applyTicketLinks, TICKET_LIST_KEY } from '../../lib/ticket-list';
import { useAccountSyncsStore } from './account-syncs.store';
import { ACCOUNT_MESSAGES, accountTicketsKey } from './accounts.queries';
import { deleteAccount } from './api/delete-account';
import { distributeTicket } from './api/distribute-ticket';
import { getMe } from './api/get-me';
import { linkAccount } from './api/link-account';
import { linkAccountsBatch } from './api/link-accounts-batch';
import { reauthAccount } from './api/reauth-account';

/**
 * What the accounts pages change on the server: linking, re-authenticating and deleting wallet accounts, and one
 * ticket's link. Each shows its answer in the cached account list at once, then has it read again. Used as TanStack
 * mutations (use-accounts.ts).
 */

export type LinkOutcome =
  | { kind: 'single'; ok: true; account: Account }
  | { kind: 'single'; ok: false; message: string }
  | { kind: 'batch'; ok: boolean; results: BatchLinkResult[]; linked: number; failed: number }
  | { kind: 'batch'; ok: false; message: string; results?: undefined };

export type AccountResult = { ok: true; account: Account } | { ok: false; message: string };
export type DeleteResult = { ok: boolean; message: string };
export type GenerateOutcome = { ok: true; count: number } | { ok: false; message: string };

function withoutPending<A extends Account & { pending?: boolean }>(account: A): Account {
  const { pending: _pending, ...rest } = account;
  return rest;
}

/** The cached account list with `change` made, then read again. */
function changeAccounts(client: QueryClient, change: (accounts: Account[]) => Account[]) {
  client.setQueryData<AccountsResponse>(ACCOUNT_LIST_KEY, (held) =>
    held ? { accounts: change(held.accounts) } : held,
  );
  liveRefresh(client).refresh(ACCOUNT_LIST_KEY, { now: true });
}

/** `list` with `accounts` put in: replaced where present, added at the end otherwise. */
function upsert(list: Account[], accounts: Account[]): Account[] {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const kept = list.map((a) => byId.get(a.id) ?? a);
  const known = new Set(list.map((a) => a.id));
  return [...kept, ...accounts.filter((a) => !known.has(a.id))];
}

/** One account: POST /v1/accounts; several: POST /v1/accounts/batch, each linked or refused on its own. */
export async function linkAccounts(client: QueryClient, accounts: LinkAccountRequest[]): Promise<LinkOutcome> {
  if (accounts.length === 1) {
    try {
      const account = withoutPending(await linkAccount(accounts[0]!));
      changeAccounts(client, (list) => upsert(list, [account]));
      return { kind: 'single', ok: true, account };
    } catch (error) {
      return { kind: 'single', ok: false, message: errorMessage(error, ACCOUNT_MESSAGES.addOneFailed) };
    }
  }
  try {
    const { results, linked, failed } = await linkAccountsBatch({ accounts });
    const added = results.flatMap((r) => (r.account ? [withoutPending(r.account)] : []));
    if (added.length > 0) changeAccounts(client, (list) => upsert(list, added));
    return { kind: 'batch', ok: failed === 0, results, linked, failed };
  } catch (error) {
    return { kind: 'batch', ok: false, message: errorMessage(error, ACCOUNT_MESSAGES.addManyFailed) };
  }
}

export async function reauthenticate(
  client: QueryClient,
  id: string,
  body: LinkAccountRequest,
): Promise<AccountResult> {
  try {
    const account = withoutPending(await reauthAccount(id, body));
    changeAccounts(client, (list) => upsert(list, [account]));
    return { ok: true, account };
  } catch (error) {
    return { ok: false, message: errorMessage(error, ACCOUNT_MESSAGES.reauthFailed) };
  }
}

/** DELETE the account; it leaves the list at once, and its tickets leave the ticket list with the next read. */
export async function removeAccount(client: QueryClient, id: string): Promise<DeleteResult> {
  try {
    const { message } = await deleteAccount(id);
    useAccountSyncsStore.getState().forget(id);
    changeAccounts(client, (list) => list.filter((a) => a.id !== id));
    liveRefresh(client).refresh(TICKET_LIST_KEY, { now: true });
    return { ok: true, message: message || ACCOUNT_MESSAGES.deleted };
  } catch (error) {
    return { ok: false, message: errorMessage(error, ACCOUNT_MESSAGES.deleteFailed) };
  }
}

/**
 * One ticket's link (docs/reference.md "Accounts screens": its Generate Link button, through the same modal). One
 * Idempotency-Key for the submit and its retries; the link shows at once; the balance applies; then the ticket list,
 * the account and the user are read again (docs/reference.md "Ticket and link transitions").
 */
export async function generateLink(
  client: QueryClient,
  accountId: string,
  ticketId: string,
  settings: DistributionSettings,
): Promise<GenerateOutcome> {
  const key = newIdempotencyKey();
  try {
    const answer = await withRetries(() => distributeTicket(distributeBody([ticketId], settings), key));
    const made = answer.distributions.find((d) => d.ticket_id === ticketId);
    if (made) applyTicketLinks(client, new Map([[ticketId, madeLink(made, settings)]]));
    const userId = useSessionStore.getState().user?.id;
    if (userId) useCreditsStore.getState().apply(userId, answer.balance);
    if (!made) return { ok: false, message: answer.failed[0]?.message ?? DISTRIBUTION_TEXTS.distributeFailed };
    return { ok: true, count: answer.distributions.length };
  } catch (error) {
    return { ok: false, message: errorMessage(error, DISTRIBUTION_TEXTS.distributeFailed) };
  } finally {
    const refresh = liveRefresh(client);
    refresh.refresh(TICKET_LIST_KEY, { now: true });
    refresh.refresh(accountTicketsKey(accountId), { now: true });
    void getMe()
      .then((user) => useSessionStore.getState().userChanged(user))
      .catch(() => undefined);
  }
}
