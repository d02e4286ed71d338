import { LINK_STATE_CODES, type LinkState, type PublicLink } from '@seatlink/contracts';

/**
 * The recipient page's states (/l/{code}): a working link, the three ways a link stops working
 * (docs/reference.md "Link states": 'Limit Reached', 'Expired', withdrawn by a recall), and an address that is no link
 * at all.
 */
export type RecipientState = LinkState | 'not_found';

export interface StateCopy {
  /** The heading of the state panel. */
  title: string;
  /** A short explanation, and what to do now. */
  body: string;
}

/** A 22-character base64url code (128 random bits): anything else cannot be a link, and is not asked for. */
export function isLinkCode(code: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(code);
}

/** The state a refused claim (410) names by its code; null for a code that is none of them. */
export function stateOfClaimCode(code: string | undefined): Exclude<LinkState, 'active'> | null {
  for (const [state, value] of Object.entries(LINK_STATE_CODES)) {
    if (value === code) return state as Exclude<LinkState, 'active'>;
  }
  return null;
}

/** What the page says for a link that does not work (the expiry, when known, is already formatted). */
export function stateCopy(state: Exclude<RecipientState, 'active'>, expiresAt: string | null): StateCopy {
  switch (state) {
    case 'limit_reached':
      return {
        title: 'Limit Reached',
        body: 'This link has been used as many times as its owner allowed, so it cannot add the ticket to another wallet. Ask the person who shared it for a new link.',
      };
    case 'expired':
      return {
        title: 'Expired',
        body: `This link stopped working${expiresAt ? ` on ${expiresAt}` : ''}. Ask the person who shared it for a new link.`,
      };
    case 'recalled':
      return {
        title: 'Link withdrawn',
        body: 'The owner has withdrawn this ticket, so the link no longer works. If you were expecting it, ask them to share it again.',
      };
    case 'not_found':
      return {
        title: 'Link not found',
        body: 'There is no ticket at this address. Check that the link was copied in full: it ends in a code of 22 letters, digits, dashes or underscores.',
      };
  }
}

/** Only web addresses are followed after a claim (never a javascript: or data: URL, whatever the server says). */
export function isSafeRedirect(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Control and bidirectional formatting characters (C0, DEL, C1, U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C,
 * U+FEFF) and lone surrogates. The server cleans the wallet provider's text before it keeps it; the page drops these
 * again, so a right-to-left override can never show a venue reversed whatever an answer holds.
 */
const FORMATTING =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\uFEFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text to show as it reads, in logical order: no control or bidirectional formatting character. */
export function plainText<T extends string | null>(text: T): T {
  return (text === null ? null : text.replace(FORMATTING, '')) as T;
}

/** The ticket of a link with its shown text made plain (see {@link plainText}). */
export function shownTicket(ticket: PublicLink['ticket']): PublicLink['ticket'] {
  return {
    ...ticket,
    title: plainText(ticket.title),
    subtitle: plainText(ticket.subtitle),
    venue_name: plainText(ticket.venue_name),
    seat_info: plainText(ticket.seat_info),
    next_game: plainText(ticket.next_game),
  };
}
