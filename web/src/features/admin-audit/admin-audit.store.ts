import { create } from 'zustand';
import { onSessionUserChange } from '../../lib/session.store';
import {
  applyPreset,
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

/**
 * The admin slice's audit log part (docs/reference.md "Screen state") as UI state: whose log is open and the filter
 * set, kept in local storage. The entries themselves are a query keyed by both (admin-audit.queries.ts).
 */
export interface AdminAuditState {
  filters: AuditFilters;
  /** Whose log is shown. */
  userId: string | null;
}

export interface AdminAuditActions {
  /**
   * Opens a user's log: filters restored from local storage (docs/reference.md "Audit entry"); another user's log
   * starts on page one.
   */
  open(userId: string): void;
  /**
   * docs/reference.md "Audit filter transitions": every change but the offset's resets the offset; the list is read for
   * the new filters.
   */
  setFilters(patch: Partial<AuditFilters>): void;
  applyRange(preset: Exclude<RangePreset, 'custom' | 'default'>): void;
  setDate(field: 'startDate' | 'endDate', value: string): void;
  removeChip(key: ChipKey): void;
  clearAll(): void;
  page(direction: 'next' | 'previous'): void;
}

export type AdminAuditStore = AdminAuditState & AdminAuditActions;

const storage = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

export function createAdminAuditStore(now: () => number = Date.now) {
  const store = create<AdminAuditStore>()((set, get) => {
    const change = (filters: AuditFilters) => {
      saveAuditFilters(storage(), filters);
      set({ filters });
    };

    return {
      filters: loadAuditFilters(undefined, now()),
      userId: null,

      open(userId) {
        const filters = loadAuditFilters(storage(), now());
        const sameUser = get().userId === userId;
        set({ userId, filters: sameUser ? filters : { ...filters, offset: 0 } });
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
    };
  });
  onSessionUserChange(() => store.setState({ userId: null }));
  return store;
}

export const useAdminAuditStore = createAdminAuditStore();
