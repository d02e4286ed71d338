import { create } from 'zustand';
import type { Account, DistributionFailure, Ticket } from '@seatlink/contracts';
import { ApiError, errorMessage, newIdempotencyKey, withRetries } from '../../lib/api-client';
import { useCreditsStore } from '../../lib/credits.store';
import { DISTRIBUTION_TEXTS, type DistributionSettings } from '../../lib/distribution';
import { onSessionUserChange, useSessionStore } from '../../lib/session.store';
import { distributeTickets } from './api/distribute-tickets';
import { getMe } from './api/get-me';
import { listAccounts } from './api/list-accounts';
import { listTickets } from './api/list-tickets';
import { recallDistribution } from './api/recall-distribution';
import { EMPTY_FILTERS, nextSort, type SortKey, type TicketFilters, type TicketSort } from './ticket-filters';

/** SPEC.md §9 view modes. */
export type ViewMode = 'grid' | 'list';

/**
 * The tickets slice (SPEC.md §3: tickets, loading, error, selectedAccount), with the overview's other filters, its
 * view and sort, and the accounts its account filter names. Filters live here so they survive a visit to another page.
 */
export interface TicketsState {
  tickets: Ticket[];
  loading: boolean;
  /** A first answer has arrived (an empty list then means no tickets, not "not loaded yet"). */
  loaded: boolean;
  error: string | null;
  accounts: Pick<Account, 'id' | 'name' | 'email'>[];
  filters: TicketFilters;
  view: ViewMode;
  sort: TicketSort | null;
  /** Tickets ticked for distribution (SPEC.md §2: selectable by click or checkbox). */
  selectedIds: ReadonlySet<string>;
  /** Tickets whose distribute request is running ('Distributing...' on their cards). */
  distributingIds: ReadonlySet<string>;
  /** Tickets whose recall is running (the Recall button disabled and pulsing). */
  recallingIds: ReadonlySet<string>;
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

export type DistributeOutcome =
  | { ok: true; count: number; failed: DistributionFailure[] }
  | { ok: false; message: string; failed: DistributionFailure[] };

export type RecallOutcome = { ok: true } | { ok: false; message: string };

export interface TicketsActions {
  /** GET /v1/tickets. `silent` (a live refresh) keeps the list on screen, and keeps it if the refresh fails. */
  fetchTickets(options?: { silent?: boolean }): Promise<void>;
  /** GET /v1/accounts for the account filter; a failure leaves the options ticket e-mails name. */
  fetchAccounts(): Promise<void>;
  setFilters(patch: Partial<TicketFilters>): void;
  clearFilters(): void;
  setView(view: ViewMode): void;
  /** A sortable column header was pressed (SPEC.md §2: Event, Account, Status). */
  sortBy(key: SortKey): void;
  toggleSelected(id: string): void;
  /** Ticks (or unticks) every ticket of `ids` (the list view's select-all). */
  setSelected(ids: readonly string[], selected: boolean): void;
  clearSelection(): void;
  /**
   * POST /v1/tickets/distribute for `ticketIds` with the modal's settings. One Idempotency-Key for the submit and its
   * retries. Tickets that got a link show it at once; tickets, balance and user are then re-read (SPEC.md §4).
   */
  distribute(ticketIds: readonly string[], settings: DistributionSettings): Promise<DistributeOutcome>;
  /** POST /v1/distributions/{id}/recall for the ticket's link; then tickets and user are re-read (SPEC.md §4). */
  recall(ticketId: string): Promise<RecallOutcome>;
  /** A live click count for one link: changed in place, without a reload. */
  applyClicks(ticketId: string, distributionId: string, clicks: number): void;
  dismissDistributionProblem(): void;
  dismissRecallProblem(): void;
  reset(): void;
}

export type TicketsStore = TicketsState & TicketsActions;

export const initialTicketsState: TicketsState = {
  tickets: [],
  loading: false,
  loaded: false,
  error: null,
  accounts: [],
  filters: EMPTY_FILTERS,
  view: 'grid',
  sort: null,
  selectedIds: new Set(),
  distributingIds: new Set(),
  recallingIds: new Set(),
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

/** The failures a refused distribute call lists in its body (402/404/409 carry `failed`). */
function failuresOf(error: unknown): DistributionFailure[] {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return [];
  const failed = (error.body as { failed?: unknown }).failed;
  return Array.isArray(failed) ? (failed as DistributionFailure[]) : [];
}

/** A refused call's `balance`, when it says one. */
function balanceOf(error: unknown): number | null {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return null;
  const balance = (error.body as { balance?: unknown }).balance;
  return typeof balance === 'number' ? balance : null;
}

/** Re-reads the signed-in user (balance, distribution cost) after a distribution or a recall. */
async function refreshUser(): Promise<void> {
  try {
    useSessionStore.getState().userChanged(await getMe());
  } catch {
    // The live balance push and the next status check still bring it.
  }
}

function applyBalance(balance: number | null) {
  const userId = useSessionStore.getState().user?.id;
  if (userId && balance !== null) useCreditsStore.getState().apply(userId, balance);
}

export function createTicketsStore() {
  let latestTickets = 0;
  let latestAccounts = 0;

  const store = create<TicketsStore>()((set, get) => ({
    ...initialTicketsState,

    async fetchTickets({ silent = false } = {}) {
      const request = ++latestTickets;
      if (!silent || !get().loaded) set({ loading: true, error: null });
      try {
        const { tickets } = await listTickets();
        if (request !== latestTickets) return;
        // A ticked ticket that is gone (its account deleted, its pass left the wallet) is unticked.
        const present = new Set(tickets.map((t) => t.id));
        const selected = get().selectedIds;
        const kept = [...selected].filter((id) => present.has(id));
        set({
          tickets,
          loading: false,
          loaded: true,
          error: null,
          ...(kept.length !== selected.size ? { selectedIds: new Set(kept) } : {}),
        });
      } catch (error) {
        if (request !== latestTickets) return;
        if (silent && get().loaded) set({ loading: false });
        else set({ loading: false, error: errorMessage(error, 'Failed to fetch tickets') });
      }
    },

    async fetchAccounts() {
      const request = ++latestAccounts;
      try {
        const { accounts } = await listAccounts();
        if (request === latestAccounts) {
          set({ accounts: accounts.map(({ id, name, email }) => ({ id, name, email })) });
        }
      } catch {
        // The account filter still lists every account a ticket names, by its e-mail.
      }
    },

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

    async distribute(ticketIds, settings) {
      const ids = [...new Set(ticketIds)];
      if (ids.length === 0) {
        const problem = { message: DISTRIBUTION_TEXTS.noValidTickets, failed: [] };
        set({ distributionProblem: problem });
        return { ok: false, ...problem };
      }
      set({ distributingIds: withIds(get().distributingIds, ids), distributionProblem: null });
      const key = newIdempotencyKey();
      const body = { ticket_ids: ids, expiry_date: settings.expiryDate, max_clicks: settings.maxClicks };
      try {
        const answer = await withRetries(() => distributeTickets(body, key));
        const made = new Map(answer.distributions.map((d) => [d.ticket_id, d]));
        set({
          tickets: get().tickets.map((ticket) => {
            const link = made.get(ticket.id);
            if (!link) return ticket;
            return {
              ...ticket,
              is_distributed: true,
              distribution: {
                id: link.distribution_id,
                link: link.link,
                clicks: 0,
                max_clicks: settings.maxClicks,
                expiry: settings.expiryDate,
              },
            };
          }),
          selectedIds: withoutIds(get().selectedIds, [...made.keys()]),
          distributionProblem:
            answer.failed.length > 0 ? { message: DISTRIBUTION_TEXTS.distributeFailed, failed: answer.failed } : null,
        });
        applyBalance(answer.balance);
        return { ok: true, count: answer.distributions.length, failed: answer.failed };
      } catch (error) {
        const problem = {
          message: errorMessage(error, DISTRIBUTION_TEXTS.distributeFailed),
          failed: failuresOf(error),
        };
        set({ distributionProblem: problem });
        applyBalance(balanceOf(error));
        return { ok: false, ...problem };
      } finally {
        set({ distributingIds: withoutIds(get().distributingIds, ids) });
        void get().fetchTickets({ silent: true });
        void refreshUser();
      }
    },

    async recall(ticketId) {
      const ticket = get().tickets.find((t) => t.id === ticketId);
      const distributionId = ticket?.distribution?.id;
      if (!distributionId) {
        set({ recallProblem: { ticketId, message: DISTRIBUTION_TEXTS.recallFailed } });
        return { ok: false, message: DISTRIBUTION_TEXTS.recallFailed };
      }
      set({ recallingIds: withIds(get().recallingIds, [ticketId]), recallProblem: null });
      const key = newIdempotencyKey();
      try {
        await withRetries(() => recallDistribution(distributionId, key));
        set({
          tickets: get().tickets.map((t) =>
            t.id === ticketId && t.distribution?.id === distributionId
              ? { ...t, is_distributed: false, distribution: null }
              : t,
          ),
        });
        return { ok: true };
      } catch (error) {
        const message = errorMessage(error, DISTRIBUTION_TEXTS.recallFailed);
        set({ recallProblem: { ticketId, message } });
        return { ok: false, message };
      } finally {
        set({ recallingIds: withoutIds(get().recallingIds, [ticketId]) });
        void get().fetchTickets({ silent: true });
        void refreshUser();
      }
    },

    applyClicks(ticketId, distributionId, clicks) {
      const tickets = get().tickets;
      const index = tickets.findIndex((t) => t.id === ticketId);
      const ticket = tickets[index];
      // Counts only go up: a push that arrives after a newer one changes nothing.
      if (!ticket?.distribution || ticket.distribution.id !== distributionId || ticket.distribution.clicks >= clicks)
        return;
      const next = tickets.slice();
      next[index] = { ...ticket, distribution: { ...ticket.distribution, clicks } };
      set({ tickets: next });
    },

    dismissDistributionProblem() {
      set({ distributionProblem: null });
    },

    dismissRecallProblem() {
      set({ recallProblem: null });
    },

    reset() {
      latestTickets++;
      latestAccounts++;
      set({ ...initialTicketsState });
    },
  }));
  return store;
}

export const useTicketsStore = createTicketsStore();
onSessionUserChange(() => useTicketsStore.getState().reset());
