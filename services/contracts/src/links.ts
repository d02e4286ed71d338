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
  pinFormat: 'A PIN is 4 to 8 digits',
  nameFormat: 'A name is up to 60 characters of plain text',
  nameLabel: 'Your name (optional)',
  nameHint: 'The sender sees who saved their ticket',
  yours: 'You saved this ticket on this device',
  openAgain: 'Open in wallet',
  deviceFormat: 'device_id must be 8 to 64 letters, digits, _ or -',
  /** An open's body (POST /v1/links/{code}/opens). */
  openBody: 'Send a JSON object with device_id and, optionally, referrer',
  referrerFormat: 'referrer must be a host name or a short token (letters, digits, ., _ or -, at most 253)',
  /** A device or address that tried too many PINs waits before its next try (429, Retry-After: the same seconds). */
  pinSlowed: (seconds: number) =>
    `Too many PINs tried from this device or network. Wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'} before you try again.`,
  /** The claim page while the wait runs, and once it is over. */
  pinWaiting: (seconds: number) => `You can try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
} as const;

/** A link PIN as its owner sets it and a recipient enters it: 4 to 8 digits. */
export const LINK_PIN_PATTERN = /^\d{4,8}$/;

/**
 * Wrong PINs on one link within PIN_GUESS_WINDOW_MINUTES after which its owner is told (a LinkPinGuessed event: the
 * bell, the `link.pin_guessed` webhook, the audit log), once per window. Nobody is locked out: PINs are slowed per
 * device and per address instead (docs/reference.md "Limits and constants").
 */
export const PIN_GUESS_ALERT_AT = 5;
export const PIN_GUESS_WINDOW_MINUTES = 15;

/** The longest referrer an open takes: a host name's limit (a `utm_source` token fits well within it). */
export const MAX_OPEN_REFERRER = 253;

/** An open's referrer: the referring site's host name, or the token of a `?ref=` / `utm_source` parameter. */
export const LINK_REFERRER_PATTERN = /^[A-Za-z0-9._-]{1,253}$/;

/** The claim page's device id (`device_id` of a claim's body): what it keeps in the browser, 8 to 64 characters. */
export const LINK_DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * Whether a recipient must enter a PIN first: none or one. `locked` is answered no more (links are not locked after
 * wrong PINs since PINs are slowed per device and address); it stays in the list for clients built before.
 */
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
  /** The device id the claim page keeps (LINK_DEVICE_ID_PATTERN). */
  device_id?: string;
}
