import { create } from 'zustand';
import type { Account, BatchLinkResult, LinkAccountRequest, ServerEventPayload } from '@seatlink/contracts';
import { errorMessage } from '../../lib/api-client';
import { onSessionUserChange } from '../../lib/session.store';
import { deleteAccount } from './api/delete-account';
import { linkAccount } from './api/link-account';
import { linkAccountsBatch } from './api/link-accounts-batch';
import { listAccounts } from './api/list-accounts';
import { reauthAccount } from './api/reauth-account';
import type { SyncProgress } from './account-rules';

/** SPEC.md §8 fallbacks. */
export const ACCOUNT_MESSAGES = {
  connected: 'Google account successfully connected',
  addOneFailed: 'Failed to add account',
  addManyFailed: 'Failed to add accounts',
  fetchFailed: 'Failed to fetch accounts',
  deleted: 'Account successfully deleted',
  deleteFailed: 'Failed to delete account',
  // Not in the catalogue: the re-authentication call's own fallback.
  reauthFailed: 'Failed to re-authenticate account',
  reauthenticated: 'Account re-authenticated',
} as const;

/** The accounts slice (SPEC.md §3), with the progress of the syncs running now. */
export interface AccountsState {
  accounts: Account[];
  loading: boolean;
  /** A first answer has arrived (an empty list then means no accounts). */
  loaded: boolean;
  error: string | null;
  /** By account id, while a sync runs (account.sync pushes). */
  syncs: Record<string, SyncProgress>;
}

export type LinkOutcome =
  | { kind: 'single'; ok: true; account: Account }
  | { kind: 'single'; ok: false; message: string }
  | { kind: 'batch'; ok: boolean; results: BatchLinkResult[]; linked: number; failed: number }
  | { kind: 'batch'; ok: false; message: string; results?: undefined };

export type AccountResult = { ok: true; account: Account } | { ok: false; message: string };
export type DeleteResult = { ok: boolean; message: string };

export interface AccountsActions {
  /** GET /v1/accounts. `silent` (a live refresh) keeps the list on screen, and keeps it if the refresh fails. */
  fetchAccounts(options?: { silent?: boolean }): Promise<void>;
  /** One account: POST /v1/accounts; several: POST /v1/accounts/batch, each linked or refused on its own. */
  link(accounts: LinkAccountRequest[]): Promise<LinkOutcome>;
  reauthenticate(id: string, body: LinkAccountRequest): Promise<AccountResult>;
  remove(id: string): Promise<DeleteResult>;
  /** An account.sync push. */
  applySync(payload: ServerEventPayload<'account.sync'>): void;
  reset(): void;
}

export type AccountsStore = AccountsState & AccountsActions;

export const initialAccountsState: AccountsState = {
  accounts: [],
  loading: false,
  loaded: false,
  error: null,
  syncs: {},
};

/** `list` with `accounts` put in: replaced where present, added at the end otherwise. */
function upsert(list: Account[], accounts: Account[]): Account[] {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const kept = list.map((a) => byId.get(a.id) ?? a);
  const known = new Set(list.map((a) => a.id));
  return [...kept, ...accounts.filter((a) => !known.has(a.id))];
}

function withoutPending<A extends Account & { pending?: boolean }>(account: A): Account {
  const { pending: _pending, ...rest } = account;
  return rest;
}

export function createAccountsStore() {
  let latest = 0;

  const store = create<AccountsStore>()((set, get) => ({
    ...initialAccountsState,

    async fetchAccounts({ silent = false } = {}) {
      const request = ++latest;
      if (!silent || !get().loaded) set({ loading: true, error: null });
      try {
        const { accounts } = await listAccounts();
        if (request !== latest) return;
        // A sync the list no longer shows running (it ended while a push was missed) stops showing progress.
        const syncs = Object.fromEntries(
          Object.entries(get().syncs).filter(([id]) => accounts.some((a) => a.id === id && a.syncing)),
        );
        set({ accounts, loading: false, loaded: true, error: null, syncs });
      } catch (error) {
        if (request !== latest) return;
        if (silent && get().loaded) set({ loading: false });
        else set({ loading: false, error: errorMessage(error, ACCOUNT_MESSAGES.fetchFailed) });
      }
    },

    async link(accounts) {
      if (accounts.length === 1) {
        try {
          const account = withoutPending(await linkAccount(accounts[0]!));
          latest++;
          set({ accounts: upsert(get().accounts, [account]) });
          return { kind: 'single', ok: true, account };
        } catch (error) {
          return { kind: 'single', ok: false, message: errorMessage(error, ACCOUNT_MESSAGES.addOneFailed) };
        }
      }
      try {
        const { results, linked, failed } = await linkAccountsBatch({ accounts });
        const added = results.flatMap((r) => (r.account ? [r.account] : []));
        if (added.length > 0) {
          latest++;
          set({ accounts: upsert(get().accounts, added) });
        }
        return { kind: 'batch', ok: failed === 0, results, linked, failed };
      } catch (error) {
        return { kind: 'batch', ok: false, message: errorMessage(error, ACCOUNT_MESSAGES.addManyFailed) };
      }
    },

    async reauthenticate(id, body) {
      try {
        const account = withoutPending(await reauthAccount(id, body));
        latest++;
        set({ accounts: upsert(get().accounts, [account]) });
        return { ok: true, account };
      } catch (error) {
        return { ok: false, message: errorMessage(error, ACCOUNT_MESSAGES.reauthFailed) };
      }
    },

    async remove(id) {
      try {
        const { message } = await deleteAccount(id);
        latest++;
        const { [id]: _gone, ...syncs } = get().syncs;
        set({ accounts: get().accounts.filter((a) => a.id !== id), syncs });
        return { ok: true, message: message || ACCOUNT_MESSAGES.deleted };
      } catch (error) {
        return { ok: false, message: errorMessage(error, ACCOUNT_MESSAGES.deleteFailed) };
      }
    },

    applySync({ account_id, state, fetched }) {
      const { [account_id]: _previous, ...others } = get().syncs;
      if (state === 'running') set({ syncs: { ...others, [account_id]: { state, fetched } } });
      else set({ syncs: others });
    },

    reset() {
      latest++;
      set({ ...initialAccountsState });
    },
  }));
  return store;
}

export const useAccountsStore = createAccountsStore();
onSessionUserChange(() => useAccountsStore.getState().reset());
