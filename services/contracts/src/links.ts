/**
 * A shared link as its recipient meets it: its states, what each is called and says, and the recipient's calls.
 * No zod here: the recipient's page imports this alone, and downloads no schema library.
 */

/** A link's states (docs/reference.md "Link states"). */
export const LINK_STATES = ['active', 'expired', 'limit_reached', 'recalled'] as const;
export type LinkState = (typeof LINK_STATES)[number];

/** docs/reference.md "Link": a link's max_clicks limits its clicks only when above 0; null or 0 means unlimited. */
export function hasClickLimit(maxClicks: number | null | undefined): maxClicks is number {
  return typeof maxClicks === 'number' && maxClicks > 0;
}

/**
 * A ticket is one seat, and each claim of its link saves it (docs/reference.md "Link"): a link whose click limit is
 * above 1, or that has none, lets more than one person save the same seat. The dashboard says so where a link is made
 * or edited, and beside a live link that can (SEAT_SHARING_WARNING); it is a warning, never a refusal.
 */
export function letsSeveralSave(maxClicks: number | null | undefined): boolean {
  return !hasClickLimit(maxClicks) || maxClicks > 1;
}

/** The warning of a link that more than one person can save its seat with (letsSeveralSave), exactly. */
export const SEAT_SHARING_WARNING = 'More than one person can save this seat with this link.';

/** What a link's state is decided on. */
export interface LinkStateFacts {
  /** Withdrawn by its owner. */
  recalled: boolean;
  /** Its ticket is still in its owner's wallet (a ticket gone withdraws its link); taken as held when not given. */
  ticketHeld?: boolean;
  /** When it stops working; none (or a text that is no date) never. */
  expiresAt: string | Date | null | undefined;
  maxClicks: number | null | undefined;
  clicks: number;
}

/**
 * A link's state (docs/reference.md "Link states"), the first that applies: withdrawn (recalled, or its ticket no
 * longer held), expired (its expiry at or before `now`), limit reached (a limit above 0 and the clicks at or above it),
 * else active. The database decides claims with the same rule (`seatlink_link_state`); a test holds the two to the same
 * answers.
 */
export function linkState(link: LinkStateFacts, now: number | Date): LinkState {
  if (link.recalled || link.ticketHeld === false) return 'recalled';
  if (link.expiresAt !== null && link.expiresAt !== undefined) {
    const at = link.expiresAt instanceof Date ? link.expiresAt.getTime() : Date.parse(link.expiresAt);
    if (Number.isFinite(at) && at <= (now instanceof Date ? now.getTime() : now)) return 'expired';
  }
  if (hasClickLimit(link.maxClicks) && link.clicks >= link.maxClicks) return 'limit_reached';
  return 'active';
}

export const LINK_STATE_CODES = {
  expired: 'LINK_EXPIRED',
  limit_reached: 'LIMIT_REACHED',
  recalled: 'LINK_RECALLED',
} as const satisfies Record<Exclude<LinkState, 'active'>, string>;

export const LINK_MESSAGES = {
  expired: 'This link has expired',
  limit_reached: 'This link has reached its limit',
  recalled: 'This link was withdrawn by its owner',
  notFound: 'Link not found',
  automated: 'Links are claimed by people, not by automated clients',
  pinRequired: 'Enter the PIN the sender gave you',
  pinInvalid: 'That PIN is not right',
  pinLocked: 'This link is locked after too many wrong PINs. Ask its sender for a new PIN.',
  pinFormat: 'A PIN is 4 to 8 digits',
  nameFormat: 'A name is up to 60 characters of plain text',
  nameLabel: 'Your name (optional)',
  nameHint: 'The sender sees who saved their ticket',
  yours: 'You saved this ticket on this device',
  openAgain: 'Open in wallet',
} as const;

/** A link PIN as its owner sets it and a recipient enters it: 4 to 8 digits. */
export const LINK_PIN_PATTERN = /^\d{4,8}$/;

/** Wrong PINs after which a link is locked until its owner sets a new one. */
export const MAX_PIN_FAILURES = 10;

/** Whether a recipient must enter a PIN first: none, one, or none will do (locked). */
export const LINK_PIN_STATES = ['none', 'required', 'locked'] as const;
export type LinkPinState = (typeof LINK_PIN_STATES)[number];

/**
 * What a recipient sees before claiming (PublicLink) and what a claim answers (ClaimResponse): their schemas are in
 * distribution.ts (the recipient's page takes only these types from there, no schema).
 */
export type { ClaimResponse, PublicLink, PublicLinkTicket } from './distribution.js';

/** POST /v1/links/{code}/claim's body: the PIN, for a link that has one. */
export interface ClaimRequest {
  pin?: string;
  name?: string;
}
