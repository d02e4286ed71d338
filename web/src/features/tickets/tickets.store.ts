import { create } from 'zustand';
import type { DistributionFailure } from '@seatlink/contracts';
import { onSessionUserChange } from '../../lib/session.store';
import { EMPTY_FILTERS, nextSort, type SortKey, type TicketFilters, type TicketSort } from './ticket-filters';

/** The view modes (docs/reference.md "Limits and constants"). */
export type ViewMode = 'grid' | 'list';

/**
 * The overview's UI state: its filters (selectedAccount among them: docs/reference.md "Screen state"), view, sort and
 * selection, and the last distribution's or recall's failure. The tickets themselves come from the API through TanStack
 * Query (hooks/use-tickets.ts). This state survives a visit to another page and empties when the signed-in user
 * changes.
 */
export interface TicketsUiState {
  filters: TicketFilters;
  view: ViewMode;
  sort: TicketSort | null;
  /** Tickets ticked for distribution (docs/reference.md "Tickets Overview screen": selectable by click or checkbox). */
  selectedIds: ReadonlySet<string>;
  /** The last distribution's failure or refusals, shown above the tickets until dismissed. */
  distributionProblem: DistributionProblem | null;
  /** The last recall's failure: the server's message or 'Failed to recall ticket', until dismissed. */
  recallProblem: { ticketId: string; message: string } | null;
}

export interface DistributionProblem {
  /** The server's message, or 'Failed to generate distribution link'. */
  message: string;
  /** The tickets that got no link, and why. */
  failed: DistributionFailure[];
}

export interface TicketsUiActions {
  setFilters(patch: Partial<TicketFilters>): void;
  clearFilters(): void;
  setView(view: ViewMode): void;
  /** A sortable column header was pressed (docs/reference.md "Tickets Overview screen": Event, Next Game, Account, Status). */
  sortBy(key: SortKey): void;
  /** A sort chosen from the Sort by control (the grid's, a phone's); null for the list's own order. */
  setSort(sort: TicketSort | null): void;
  toggleSelected(id: string): void;
  /** Ticks (or unticks) every ticket of `ids` (the list view's select-all). */
  setSelected(ids: readonly string[], selected: boolean): void;
  clearSelection(): void;
  /** Unticks the ticked tickets `isPresent` denies (gone: their account deleted, their pass left the wallet). */
  keepSelected(isPresent: (id: string) => boolean): void;
  setDistributionProblem(problem: DistributionProblem | null): void;
  setRecallProblem(problem: { ticketId: string; message: string } | null): void;
  reset(): void;
}

export type TicketsUiStore = TicketsUiState & TicketsUiActions;

export const initialTicketsUiState: TicketsUiState = {
  filters: EMPTY_FILTERS,
  view: 'grid',
  sort: null,
  selectedIds: new Set(),
  distributionProblem: null,
  recallProblem: null,
};

function withIds(set: ReadonlySet<string>, ids: readonly string[]): Set<string> {
  const next = new Set(set);
  for (const id of ids) next.add(id);
  return next;
}

function withoutIds(set: ReadonlySet<string>, ids: readonly string[]): Set<string> {
  const next = new Set(set);
  for (const id of ids) next.delete(id);
  return next;
}

export function createTicketsStore() {
  return create<TicketsUiStore>()((set, get) => ({
    ...initialTicketsUiState,

    setFilters(patch) {
      set({ filters: { ...get().filters, ...patch } });
    },

    clearFilters() {
      set({ filters: EMPTY_FILTERS });
    },

    setView(view) {
      set({ view });
    },

    sortBy(key) {
      set({ sort: nextSort(get().sort, key) });
    },

    setSort(sort) {
      set({ sort });
    },

    toggleSelected(id) {
      const selected = get().selectedIds;
      set({ selectedIds: selected.has(id) ? withoutIds(selected, [id]) : withIds(selected, [id]) });
    },

    setSelected(ids, selected) {
      const current = get().selectedIds;
      set({ selectedIds: selected ? withIds(current, ids) : withoutIds(current, ids) });
    },

    clearSelection() {
      if (get().selectedIds.size > 0) set({ selectedIds: new Set() });
    },

    keepSelected(isPresent) {
      const selected = get().selectedIds;
      const gone = [...selected].filter((id) => !isPresent(id));
      if (gone.length > 0) set({ selectedIds: withoutIds(selected, gone) });
    },

    setDistributionProblem(distributionProblem) {
      set({ distributionProblem });
    },

    setRecallProblem(recallProblem) {
      set({ recallProblem });
    },

    reset() {
      set({ ...initialTicketsUiState });
    },
  }));
}

export const useTicketsStore = createTicketsStore();
onSessionUserChange(() => useTicketsStore.getState().reset());
