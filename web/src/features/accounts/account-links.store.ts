import { create } from 'zustand';
import type { TicketDistribution } from '@seatlink/contracts';
import { errorMessage, newIdempotencyKey, withRetries } from '../../lib/api-client';
import { useCreditsStore } from '../../lib/credits.store';
import { DISTRIBUTION_TEXTS, type DistributionSettings } from '../../lib/distribution';
import { onSessionUserChange, useSessionStore } from '../../lib/session.store';
import { distributeTicket } from './api/distribute-ticket';
import { getMe } from './api/get-me';
import { listTickets } from './api/list-tickets';

/** What the account page needs to know of a ticket beyond the account detail: its live link and whether it is a duplicate. */
export interface TicketLinkInfo {
  is_duplicate: boolean;
  distribution: TicketDistribution | null;
}

export interface AccountLinksState {
  /** By ticket id (GET /v1/tickets). */
  byTicket: Readonly<Record<string, TicketLinkInfo>>;
  loaded: boolean;
  /** Tickets whose distribution runs now. */
  distributing: ReadonlySet<string>;
}

export type GenerateOutcome = { ok: true; count: number } | { ok: false; message: string };

export interface AccountLinksActions {
  fetch(): Promise<void>;
  /** One ticket's link (SPEC.md §2 account tickets page: its Generate Link button, through the same modal). */
  generate(ticketId: string, settings: DistributionSettings): Promise<GenerateOutcome>;
  /** A live click count: changed in place. */
  applyClicks(ticketId: string, distributionId: string, clicks: number): void;
  reset(): void;
}

export type AccountLinksStore = AccountLinksState & AccountLinksActions;

const initial: AccountLinksState = { byTicket: {}, loaded: false, distributing: new Set() };

export function createAccountLinksStore() {
  let latest = 0;
  const store = create<AccountLinksStore>()((set, get) => ({
    ...initial,

    async fetch() {
      const request = ++latest;
      try {
        const { tickets } = await listTickets();
        if (request !== latest) return;
        const byTicket: Record<string, TicketLinkInfo> = {};
        for (const t of tickets) byTicket[t.id] = { is_duplicate: t.is_duplicate, distribution: t.distribution };
        set({ byTicket, loaded: true });
      } catch {
        // The cards still show what the account detail says (distributed or not); links come with the next refresh.
      }
    },

    async generate(ticketId, settings) {
      set({ distributing: new Set([...get().distributing, ticketId]) });
      const key = newIdempotencyKey();
      try {
        const answer = await withRetries(() =>
          distributeTicket(
            { ticket_ids: [ticketId], expiry_date: settings.expiryDate, max_clicks: settings.maxClicks },
            key,
          ),
        );
        const made = answer.distributions.find((d) => d.ticket_id === ticketId);
        if (made) {
          set({
            byTicket: {
              ...get().byTicket,
              [ticketId]: {
                is_duplicate: false,
                distribution: {
                  id: made.distribution_id,
                  link: made.link,
                  clicks: 0,
                  max_clicks: settings.maxClicks,
                  expiry: settings.expiryDate,
                },
              },
            },
          });
        }
        const userId = useSessionStore.getState().user?.id;
        if (userId) useCreditsStore.getState().apply(userId, answer.balance);
        if (!made) return { ok: false, message: answer.failed[0]?.message ?? DISTRIBUTION_TEXTS.distributeFailed };
        return { ok: true, count: answer.distributions.length };
      } catch (error) {
        return { ok: false, message: errorMessage(error, DISTRIBUTION_TEXTS.distributeFailed) };
      } finally {
        const distributing = new Set(get().distributing);
        distributing.delete(ticketId);
        set({ distributing });
        void get().fetch();
        // SPEC.md §4: the user is re-read after a distribution.
        void getMe()
          .then((user) => useSessionStore.getState().userChanged(user))
          .catch(() => undefined);
      }
    },

    applyClicks(ticketId, distributionId, clicks) {
      const info = get().byTicket[ticketId];
      if (!info?.distribution || info.distribution.id !== distributionId || info.distribution.clicks >= clicks) return;
      set({
        byTicket: { ...get().byTicket, [ticketId]: { ...info, distribution: { ...info.distribution, clicks } } },
      });
    },

    reset() {
      latest++;
      set({ ...initial, distributing: new Set() });
    },
  }));
  onSessionUserChange(() => store.getState().reset());
  return store;
}

export const useAccountLinksStore = createAccountLinksStore();
