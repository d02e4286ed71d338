import { create } from 'zustand';
import type { Account, ServerEventPayload } from '@seatlink/contracts';
import { onSessionUserChange } from '../../lib/session.store';
import type { SyncProgress } from './account-rules';

/**
 * The progress of the syncs running now, by account id, from the `account.sync` pushes (not from the API: live UI
 * state beside the accounts query).
 */
export interface AccountSyncsStore {
  syncs: Readonly<Record<string, SyncProgress>>;
  /** An account.sync push. */
  apply(payload: ServerEventPayload<'account.sync'>): void;
  /** The account list as read now: a sync it no longer shows running (its end push was missed) stops showing. */
  keepRunning(accounts: readonly Pick<Account, 'id' | 'syncing'>[]): void;
  forget(accountId: string): void;
  reset(): void;
}

export function createAccountSyncsStore() {
  return create<AccountSyncsStore>()((set, get) => ({
    syncs: {},

    apply({ account_id, state, fetched }) {
      const { [account_id]: _previous, ...others } = get().syncs;
      if (state === 'running') set({ syncs: { ...others, [account_id]: { state, fetched } } });
      else set({ syncs: others });
    },

    keepRunning(accounts) {
      const running = new Set(accounts.filter((a) => a.syncing).map((a) => a.id));
      const current = get().syncs;
      const kept = Object.entries(current).filter(([id]) => running.has(id));
      if (kept.length !== Object.keys(current).length) set({ syncs: Object.fromEntries(kept) });
    },

    forget(accountId) {
      const { [accountId]: _gone, ...others } = get().syncs;
      if (_gone) set({ syncs: others });
    },

    reset() {
      set({ syncs: {} });
    },
  }));
}

export const useAccountSyncsStore = createAccountSyncsStore();
onSessionUserChange(() => useAccountSyncsStore.getState().reset());
