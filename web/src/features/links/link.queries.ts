import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { LINK_MESSAGES, type PublicLink } from '@seatlink/contracts';
import { ApiError, errorCode, errorMessage, newIdempotencyKey, withRetries } from '../../lib/api-client';
import { claimLink } from './api/claim-link';
import { rememberClaim } from './claimed-here';
import { viewLink } from './api/view-link';
import { isLinkCode, shownTicket, stateOfClaimCode, type RecipientState } from './link-states';

export const LINK_PAGE_MESSAGES = {
  loadFailed: 'This link could not be opened just now. Check your connection and try again.',
  claimFailed: 'The ticket could not be added just now. Check your connection and try again.',
} as const;

/** What the recipient page shows: the link (null when there is none) and its state. */
export interface LinkView {
  link: PublicLink | null;
  state: RecipientState;
}

export const linkKey = (code: string) => ['link', code] as const;

/**
 * GET /v1/links/{code}: the link and whether it works. An address that cannot be a link is not asked for, and one
 * the server does not know (404, 400) is 'not found'; no answer at all or a server error fails the query (the page
 * offers to try again).
 */
export async function readLink(code: string): Promise<LinkView> {
  if (!isLinkCode(code)) return { link: null, state: 'not_found' };
  try {
    const link = await viewLink(code);
    return { link: { ...link, ticket: shownTicket(link.ticket) }, state: link.state };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      return { link: null, state: 'not_found' };
    }
    throw error;
  }
}

export const linkQuery = (code: string) => queryOptions({ queryKey: linkKey(code), queryFn: () => readLink(code) });

/**
 * How a claim ended: the wallet address to go to, or why not (the page's state changed, or a message to show; `pin`
 * when it was about the PIN, shown under its field).
 */
export type ClaimOutcome =
  { walletUrl: string } | { walletUrl: null; claimError: string | null; pin?: boolean; waitSeconds?: number };

/** The seconds a 429 asks to wait (its `retryAfterSeconds`, as its Retry-After), at least 1. */
function waitOf(error: unknown): number {
  const body = error instanceof ApiError ? (error.body as { retryAfterSeconds?: unknown } | undefined) : undefined;
  const seconds = Number(body?.retryAfterSeconds);
  return Number.isFinite(seconds) && seconds >= 1 ? Math.ceil(seconds) : 1;
}

/** The Idempotency-Key of a claim per link code, kept until a definite answer (pressing again counts no second click). */
const claimKeys = new Map<string, string>();

/**
 * POST the claim (one counted click) with retries. A link refused meanwhile (410) or gone (404) turns the page into
 * that state (in the cached view); a refused client or no answer is a message, and the link still works.
 */
export async function claim(
  client: QueryClient,
  code: string,
  pin: string | null = null,
  name: string | null = null,
): Promise<ClaimOutcome> {
  let key = claimKeys.get(code);
  if (!key) {
    key = newIdempotencyKey();
    claimKeys.set(code, key);
  }
  const idempotencyKey = key;
  try {
    const { wallet_url } = await withRetries(() => claimLink(code, idempotencyKey, pin, name));
    claimKeys.delete(code);
    rememberClaim(code, wallet_url);
    return { walletUrl: wallet_url };
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 0;
    if (status >= 400 && status < 500) claimKeys.delete(code);
    const gone = status === 410 ? stateOfClaimCode(errorCode(error)) : status === 404 ? 'not_found' : null;
    if (gone) {
      client.setQueryData<LinkView>(linkKey(code), (held) => ({ link: held?.link ?? null, state: gone }));
      return { walletUrl: null, claimError: null };
    }
    // The PIN: missing or wrong, or too many tried from this device or network: each said under its field, the last
    // with the wait before the next try.
    if (status === 429) {
      const waitSeconds = waitOf(error);
      return {
        walletUrl: null,
        claimError: errorMessage(error, LINK_MESSAGES.pinSlowed(waitSeconds)),
        pin: true,
        waitSeconds,
      };
    }
    if (status === 401)
      return { walletUrl: null, claimError: errorMessage(error, LINK_MESSAGES.pinInvalid), pin: true };
    const fallback = status === 403 ? LINK_MESSAGES.automated : LINK_PAGE_MESSAGES.claimFailed;
    return { walletUrl: null, claimError: status === 0 ? fallback : errorMessage(error, fallback) };
  }
}
