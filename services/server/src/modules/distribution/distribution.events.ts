import { CLAIMS_STREAM_PREFIX } from '../../infra/event-store/event-store.port.js';
import type { DomainEvent } from '../../shared/event-sourcing/decider.js';

/**
 * A ticket got a shareable link. The ticket's own stream holds it, so one ticket has one live link at a time whatever
 * runs in parallel. `code` is the unguessable part of the link; `cost` what the link was paid for.
 */
export type TicketDistributed = DomainEvent<
  'TicketDistributed',
  {
    ticketId: string;
    distributionId: string;
    userId: string;
    accountId: string;
    code: string;
    expiresAt: string | null;
    maxClicks: number | null;
    cost: number;
    /** Its owner's label ("for Sam"); absent on links made before labels were. */
    label?: string | null;
    /** The hash (argon2id) of the PIN a recipient must enter; absent or null: none. */
    pinHash?: string | null;
    /** Whom the link is for (Seatlink mails an e-mail recipient the link); absent or null: nobody named. */
    recipient?: LinkRecipientData | null;
    at: string;
  }
>;

/** A link's named recipient: a name, an e-mail address (lower-cased), or both. */
export interface LinkRecipientData {
  name: string | null;
  email: string | null;
}

/** What an owner can change on a live link (LinkUpdated). */
export interface LinkSettings {
  expiresAt: string | null;
  maxClicks: number | null;
  label: string | null;
  /** The PIN's hash (argon2id); null for none. A new PIN (even the same digits) is a new hash. */
  pinHash: string | null;
  /** Whom the link is for; null for nobody named. Absent on edits recorded before links named recipients. */
  recipient?: LinkRecipientData | null;
}

/**
 * The owner changed a live link's settings without recalling it: `settings` is all of them as they are now, `previous`
 * those that changed as they were (its keys are what changed). The claim path holds to the new ones at once.
 */
export type LinkUpdated = DomainEvent<
  'LinkUpdated',
  {
    ticketId: string;
    distributionId: string;
    userId: string;
    settings: LinkSettings;
    previous: Partial<LinkSettings>;
    at: string;
  }
>;

/** The owner withdrew the link: it stops working at once; the ticket can be distributed again. */
export type TicketRecalled = DomainEvent<
  'TicketRecalled',
  { ticketId: string; distributionId: string; userId: string; at: string }
>;

/**
 * A link that was paid for and not made will never be made: its distribution id is given up on the ticket's stream
 * (so a late append of it, or a retry of its request, is refused by the stream's revision), and only then are its
 * credits given back. `reference` is the request that paid for it. A ticket's stream holds either the link or its
 * voiding, never both, which is what keeps a refunded link from ever being made. `code` and `reason` say why it was
 * not made (the audit log's FAILED entry).
 */
export type DistributionVoided = DomainEvent<
  'DistributionVoided',
  {
    ticketId: string;
    distributionId: string;
    userId: string;
    reference: string;
    code: string;
    reason: string;
    at: string;
  }
>;

/** A ticket the request asked for got no link (the audit log's FAILED entries). */
export type DistributionRefused = DomainEvent<
  'DistributionRefused',
  { ticketId: string; distributionId: string; userId: string; code: string; reason: string; at: string }
>;

/** A recall that was refused (unknown, not the caller's, already recalled). */
export type RecallRefused = DomainEvent<
  'RecallRefused',
  { ticketId: string | null; distributionId: string; userId: string; code: string; reason: string; at: string }
>;

/**
 * Too many wrong PINs were entered for the link: it was locked (no PIN opened it) until its owner set a new one.
 * Recorded no more: wrong PINs now lock nobody out (PINs are slowed per device and address, and LinkPinGuessed tells
 * the owner). Kept so the streams that hold one still replay; a link locked so opens again with its PIN.
 */
export type LinkPinLocked = DomainEvent<
  'LinkPinLocked',
  { ticketId: string; distributionId: string; userId: string; pinHash: string; failures: number; at: string }
>;

/**
 * Wrong PINs were tried on the link again and again: PIN_GUESS_ALERT_AT within PIN_GUESS_WINDOW_MINUTES, the first at
 * `since`. Its owner is told (the bell, the `link.pin_guessed` webhook, the audit log), once per window; nobody is
 * locked out. `pinHash` is the PIN they were tried against.
 */
export type LinkPinGuessed = DomainEvent<
  'LinkPinGuessed',
  {
    ticketId: string;
    distributionId: string;
    userId: string;
    pinHash: string;
    failures: number;
    since: string;
    at: string;
  }
>;

/**
 * A live link expires within a day: its owner is told (the notification centre). Once per expiry: an expiry moved
 * later can be warned of again.
 */
export type LinkExpiryNear = DomainEvent<
  'LinkExpiryNear',
  { ticketId: string; distributionId: string; userId: string; expiresAt: string; at: string }
>;

/**
 * A live link's expiry passed: it opens no more (its owner's systems are told: the `link.expired` webhook). Once per
 * expiry: an expiry moved later and passed again is recorded again.
 */
export type LinkExpired = DomainEvent<
  'LinkExpired',
  { ticketId: string; distributionId: string; userId: string; expiresAt: string; at: string }
>;

/** An edit of a link that was refused (unknown, not the caller's, recalled, a limit below its clicks). */
export type LinkUpdateRefused = DomainEvent<
  'LinkUpdateRefused',
  { ticketId: string | null; distributionId: string; userId: string; code: string; reason: string; at: string }
>;

/**
 * One counted click on a link: `n` is its number (the link's counter handed it out), so the click is position n - 1 of
 * the link's click stream and no click is recorded twice.
 */
export type LinkClicked = DomainEvent<
  'LinkClicked',
  {
    distributionId: string;
    ticketId: string;
    userId: string;
    n: number;
    at: string;
    /** The name the recipient gave when claiming (absent: none, or recorded before recipients could). */
    name?: string;
    /** The kind of device it came from ("iPhone", "Windows PC"; absent: not known). */
    device?: string;
  }
>;

/**
 * A device opened the link's recipient page for the first time (docs/reference.md "Link"): each link and device once
 * (a device opening it again is no event), bots and link previews never. `deviceHash` is a keyed hash of the page's
 * device id (the id itself is not kept); `device` its class ("iPhone"; null: not known); `referrer` where the
 * recipient came from (a host name or a `?ref=` / `utm_source` token; null: not known).
 */
export type LinkOpened = DomainEvent<
  'LinkOpened',
  {
    distributionId: string;
    ticketId: string;
    userId: string;
    deviceHash: string;
    device: string | null;
    referrer: string | null;
    at: string;
  }
>;

/**
 * A link's named recipient asked for no more e-mails about it (the signed unsubscribe link of such an e-mail). Kept per
 * link and address: later mails of this link to that address are not sent; the link itself works as before.
 */
export type LinkRecipientUnsubscribed = DomainEvent<
  'LinkRecipientUnsubscribed',
  { ticketId: string; distributionId: string; userId: string; email: string; at: string }
>;

export type TicketDistributionEvent =
  | TicketDistributed
  | LinkRecipientUnsubscribed
  | TicketRecalled
  | DistributionVoided
  | LinkUpdated
  | LinkPinLocked
  | LinkPinGuessed
  | LinkExpiryNear
  | LinkExpired;
export type DistributionEvent =
  TicketDistributionEvent | DistributionRefused | RecallRefused | LinkUpdateRefused | LinkClicked | LinkOpened;

/** A ticket's distribution stream: it decides whether the ticket can get a link now. */
export const ticketDistributionStream = (ticketId: string) => `ticket-distribution-${ticketId}`;
/** The refusals of one request (a stream of its own: recording them contends with nothing). */
export const refusalStream = (userId: string, commandId: string) => `distribution-refusals-${userId}-${commandId}`;
/** A link's counted clicks, one position per click. */
export const clickStream = (distributionId: string) => `${CLAIMS_STREAM_PREFIX}${distributionId}`;
/** A link's first opens, one position per device that opened it. */
export const openStream = (distributionId: string) => `link-opens-${distributionId}`;
