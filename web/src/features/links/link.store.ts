import { create } from 'zustand';
import { LINK_MESSAGES, type PublicLink } from '@seatlink/contracts';
import { ApiError, errorCode, errorMessage, newIdempotencyKey, withRetries } from '../../lib/api-client';
import { claimLink } from './api/claim-link';
import { viewLink } from './api/view-link';
import { isLinkCode, shownTicket, stateOfClaimCode, type RecipientState } from './link-states';

export interface LinkPageState {
  code: string | null;
  link: PublicLink | null;
  /** What the page shows; null while the first load runs or after it failed. */
  state: RecipientState | null;
  loading: boolean;
  /** The load failed for another reason than "no such link" (no answer, a server error). */
  error: string | null;
  claiming: boolean;
  /** The claim failed and the link still works (a refused client, no answer). */
  claimError: string | null;
}

export interface LinkPageActions {
  load(code: string): Promise<void>;
  /**
   * POST the claim (one counted click) and answer the wallet address to go to; null when the claim did not go
   * through (then `state` or `claimError` says why). One Idempotency-Key until a definite answer, so pressing again
   * after a lost answer does not count a second click.
   */
  claim(): Promise<string | null>;
}

export type LinkPageStore = LinkPageState & LinkPageActions;

export const LINK_PAGE_MESSAGES = {
  loadFailed: 'This link could not be opened just now. Check your connection and try again.',
  claimFailed: 'The ticket could not be added just now. Check your connection and try again.',
} as const;

const initial: LinkPageState = {
  code: null,
  link: null,
  state: null,
  loading: false,
  error: null,
  claiming: false,
  claimError: null,
};

export function createLinkPageStore() {
  let latest = 0;
  let claimKey: string | null = null;
  return create<LinkPageStore>()((set, get) => ({
    ...initial,

    async load(code) {
      const request = ++latest;
      if (get().code !== code) claimKey = null;
      set({ ...initial, code, loading: true });
      if (!isLinkCode(code)) {
        set({ loading: false, state: 'not_found' });
        return;
      }
      try {
        const link = await viewLink(code);
        if (request === latest)
          set({ loading: false, link: { ...link, ticket: shownTicket(link.ticket) }, state: link.state });
      } catch (error) {
        if (request !== latest) return;
        const gone = error instanceof ApiError && (error.status === 404 || error.status === 400);
        set({ loading: false, ...(gone ? { state: 'not_found' } : { error: LINK_PAGE_MESSAGES.loadFailed }) });
      }
    },

    async claim() {
      const { code, claiming, state } = get();
      if (!code || claiming || state !== 'active') return null;
      claimKey ??= newIdempotencyKey();
      const key = claimKey;
      set({ claiming: true, claimError: null });
      try {
        const { wallet_url } = await withRetries(() => claimLink(code, key));
        claimKey = null;
        set({ claiming: false });
        return wallet_url;
      } catch (error) {
        const status = error instanceof ApiError ? error.status : 0;
        if (status >= 400 && status < 500) claimKey = null;
        const gone = status === 410 ? stateOfClaimCode(errorCode(error)) : null;
        if (gone) set({ claiming: false, state: gone });
        else if (status === 404) set({ claiming: false, state: 'not_found' });
        else {
          const fallback = status === 403 ? LINK_MESSAGES.automated : LINK_PAGE_MESSAGES.claimFailed;
          set({ claiming: false, claimError: status === 0 ? fallback : errorMessage(error, fallback) });
        }
        return null;
      }
    },
  }));
}

export const useLinkPageStore = createLinkPageStore();
