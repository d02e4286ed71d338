import { create } from 'zustand';
import type { AuditEntry } from '@seatlink/contracts';
import { errorMessage } from '../../lib/api-client';
import { onSessionUserChange } from '../../lib/session.store';
import { listUserAudits } from './api/list-user-audits';
import {
  applyPreset,
  auditQuery,
  clearAllFilters,
  loadAuditFilters,
  pageTo,
  removeChip,
  saveAuditFilters,
  setCustomDate,
  updateAuditFilters,
  type AuditFilters,
  type ChipKey,
  type RangePreset,
} from './audit-filters';

/** SPEC.md §8: the audit list's fallback error. */
export const AUDITS_FETCH_FAILED = 'Failed to fetch user audits';

/** The admin slice's audit log part (SPEC.md §3): the filter set, and the page it shows for one user. */
export interface AdminAuditState {
  filters: AuditFilters;
  /** Whose log is shown. */
  userId: string | null;
  audits: AuditEntry[];
  /** A load the page waits for is under way. */
  loading: boolean;
  /** An answer for the current user and filters has arrived. */
  loaded: boolean;
  error: string | null;
}

export interface AdminAuditActions {
  /** Opens a user's log: filters restored from local storage (SPEC.md §3), then the first load. */
  open(userId: string): void;
  /** SPEC.md §4: every change but the offset's resets the offset; the list reloads on every change. */
  setFilters(patch: Partial<AuditFilters>): void;
  applyRange(preset: Exclude<RangePreset, 'custom' | 'default'>): void;
  setDate(field: 'startDate' | 'endDate', value: string): void;
  removeChip(key: ChipKey): void;
  clearAll(): void;
  page(direction: 'next' | 'previous'): void;
  /** Reloads what is shown; `silent` (a live push) keeps the rows while it loads. */
  reload(options?: { silent?: boolean }): Promise<void>;
}

export type AdminAuditStore = AdminAuditState & AdminAuditActions;

const storage = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

export function createAdminAuditStore(load = listUserAudits, now: () => number = Date.now) {
  let latest = 0;
  const store = create<AdminAuditStore>()((set, get) => {
    const change = (filters: AuditFilters) => {
      saveAuditFilters(storage(), filters);
      set({ filters });
      void get().reload();
    };

    return {
      filters: loadAuditFilters(undefined, now()),
      userId: null,
      audits: [],
      loading: false,
      loaded: false,
      error: null,

      open(userId) {
        const filters = loadAuditFilters(storage(), now());
        const sameUser = get().userId === userId;
        set({
          userId,
          // Another user's log starts on its first page.
          filters: sameUser ? filters : { ...filters, offset: 0 },
          ...(sameUser ? {} : { audits: [], loaded: false }),
        });
        void get().reload();
      },

      setFilters(patch) {
        change(updateAuditFilters(get().filters, patch));
      },

      applyRange(preset) {
        change(applyPreset(get().filters, preset, now()));
      },

      setDate(field, value) {
        change(setCustomDate(get().filters, field, value));
      },

      removeChip(key) {
        change(removeChip(get().filters, key, now()));
      },

      clearAll() {
        change(clearAllFilters(now()));
      },

      page(direction) {
        change(pageTo(get().filters, direction));
      },

      async reload({ silent = false } = {}) {
        const { userId, filters } = get();
        if (!userId) return;
        const request = ++latest;
        if (!silent) set({ loading: true, error: null });
        try {
          const { audits } = await load(userId, auditQuery(filters, now()));
          if (request === latest) set({ audits, loading: false, loaded: true, error: null });
        } catch (error) {
          if (request !== latest) return;
          if (silent && get().loaded) set({ loading: false });
          else set({ audits: [], loading: false, loaded: true, error: errorMessage(error, AUDITS_FETCH_FAILED) });
        }
      },
    };
  });
  onSessionUserChange(() => {
    latest++;
    store.setState({ userId: null, audits: [], loaded: false, loading: false, error: null });
  });
  return store;
}

export const useAdminAuditStore = createAdminAuditStore();
