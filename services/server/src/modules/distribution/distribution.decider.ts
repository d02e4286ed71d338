import {
  DISTRIBUTION_MESSAGES,
  hasClickLimit,
  LINK_EXPIRING_WITHIN_MS,
  PIN_GUESS_WINDOW_MINUTES,
} from '@seatlink/contracts';
import { type Decider, DomainError } from '../../shared/event-sourcing/decider.js';
import type {
  DistributionVoided,
  LinkRecipientData,
  LinkSettings,
  TicketDistributionEvent,
} from './distribution.events.js';

/** A ticket's distribution state: its live link, if any, the links it had, and the paid-for links given up. */
export interface TicketDistributionState {
  /** The live link, with its settings as made and edited since. */
  current:
    | ({
        distributionId: string;
        userId: string;
        /** When its owner was last told of wrong PINs (LinkPinGuessed); null: never. */
        pinGuessedAt: string | null;
        /** The expiry its owner was told is near (LinkExpiryNear); null: none yet. */
        expiryWarned: string | null;
        /** The expiry recorded as passed (LinkExpired); null: none yet. */
        expired?: string | null;
        /** Whom the link is for; null for nobody named. */
        recipient: LinkRecipientData | null;
      } & LinkSettings)
    | null;
  /** The ticket's recalled links, each with its owner (another user's recalled link is one they do not know of). */
  recalled: ReadonlyMap<string, string>;
  /** Every link this ticket has had (live or recalled). */
  made: ReadonlySet<string>;
  /** Links paid for and never made, given up so they never will be: distribution id → the request that paid. */
  voided: ReadonlyMap<string, string>;
  /** The links' recipients who asked for no more e-mails: `${distributionId} ${email}`. */
  unsubscribed: ReadonlySet<string>;
}

/** The key of a link's recipient address in `unsubscribed`. */
export const unsubscribedKey = (distributionId: string, email: string) => `${distributionId} ${email}`;

export type TicketDistributionCommand =
  | {
      type: 'Distribute';
      data: {
        ticketId: string;
        distributionId: string;
        /** The caller. */
        userId: string;
        /** The ticket as the caller's tickets show it now: its owner (null: no such ticket) and whether a duplicate. */
        ticket: { ownerId: string; accountId: string; isDuplicate: boolean } | null;
        code: string;
        expiresAt: string | null;
        maxClicks: number | null;
        cost: number;
        label: string | null;
        pinHash: string | null;
        /** Whom the link is for; null for nobody named. */
        recipient: LinkRecipientData | null;
        now: string;
      };
    }
  | {
      /** A link's recipient asks for no more e-mails about it, at this address (the signed unsubscribe link). */
      type: 'UnsubscribeRecipient';
      data: { ticketId: string; distributionId: string; email: string; now: string };
    }
  | { type: 'Recall'; data: { ticketId: string; distributionId: string; userId: string; now: string } }
  | {
      /** Change a live link's settings (those given; the others stay as they are). */
      type: 'Update';
      data: {
        ticketId: string;
        distributionId: string;
        userId: string;
        changes: Partial<LinkSettings>;
        /** The clicks its counter has given, read under the counter's lock (no claim counts while this decides). */
        clicks: number;
        now: string;
      };
    }
  | {
      /**
       * Tell the owner wrong PINs were tried on the link again and again: only while the link is live with that very
       * PIN, and once per PIN_GUESS_WINDOW_MINUTES. Locks nothing.
       */
      type: 'ReportPinGuesses';
      data: {
        ticketId: string;
        distributionId: string;
        pinHash: string;
        failures: number;
        /** When the first wrong PIN of the window was tried. */
        since: string;
        now: string;
      };
    }
  | {
      /**
       * Tell the owner the live link expires soon: only for that link, with that expiry, within LINK_EXPIRING_WITHIN_MS
       * of `now` and not past, once per expiry.
       */
      type: 'WarnExpiry';
      data: { ticketId: string; distributionId: string; expiresAt: string; now: string };
    }
  | {
      /** Record that the live link's expiry passed: only for that link, with that expiry, once it is past, once. */
      type: 'MarkExpired';
      data: { ticketId: string; distributionId: string; expiresAt: string; now: string };
    }
  | {
      /** Give up a link that was paid for, unless it was made: afterwards it never can be (its credits go back). */
      type: 'Void';
      /** What its voiding records (the request that paid, why it was not made), and when. */
      data: Omit<DistributionVoided['data'], 'at'> & { now: string };
    };

export const DISTRIBUTION_REFUSALS = {
  notFound: () => new DomainError('Ticket not found', 'TICKET_NOT_FOUND', 404),
  duplicate: () => new DomainError('Cannot distribute duplicate tickets', 'DUPLICATE_TICKET', 409),
  distributed: () => new DomainError('Ticket is already distributed', 'ALREADY_DISTRIBUTED', 409),
  noDistribution: () => new DomainError('Distribution not found', 'DISTRIBUTION_NOT_FOUND', 404),
  recalled: () => new DomainError('This link was already recalled', 'ALREADY_RECALLED', 409),
  notMade: () => new DomainError('The link could not be made; its credits were given back', 'LINK_NOT_MADE', 409),
  limitBelowClicks: (clicks: number) =>
    new DomainError(DISTRIBUTION_MESSAGES.limitBelowClicks(clicks), 'LIMIT_BELOW_CLICKS', 409),
};

const SETTINGS = ['expiresAt', 'maxClicks', 'label', 'pinHash', 'recipient'] as const satisfies ReadonlyArray<
  keyof LinkSettings
>;

/** The same moment (expiries are compared as instants, whatever their text), the same limit, the same label. */
function sameSetting<K extends keyof LinkSettings>(key: K, a: LinkSettings[K], b: LinkSettings[K]): boolean {
  if (key === 'expiresAt' && typeof a === 'string' && typeof b === 'string') return Date.parse(a) === Date.parse(b);
  if (key === 'recipient') {
    const [x, y] = [a as LinkRecipientData | null | undefined, b as LinkRecipientData | null | undefined];
    return (x?.name ?? null) === (y?.name ?? null) && (x?.email ?? null) === (y?.email ?? null);
  }
  return a === b;
}

/**
 * One live link per ticket, only for its owner, never for a duplicate; a recall or an edit only by the link's owner, of
 * its live link; an edit never sets a click limit below the clicks already counted.
 */
export const ticketDistributionDecider: Decider<
  TicketDistributionState,
  TicketDistributionCommand,
  TicketDistributionEvent
> = {
  initialState: () => ({
    current: null,
    recalled: new Map(),
    made: new Set(),
    voided: new Map(),
    unsubscribed: new Set(),
  }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'TicketDistributed':
        return {
          ...state,
          current: {
            distributionId: event.data.distributionId,
            userId: event.data.userId,
            expiresAt: event.data.expiresAt,
            maxClicks: event.data.maxClicks,
            label: event.data.label ?? null,
            pinHash: event.data.pinHash ?? null,
            recipient: event.data.recipient ?? null,
            pinGuessedAt: null,
            expiryWarned: null,
          },
          made: new Set([...state.made, event.data.distributionId]),
        };
      case 'LinkUpdated': {
        const { current } = state;
        if (current?.distributionId !== event.data.distributionId) return state;
        // An edit recorded before links had PINs says nothing of one: the link keeps its own.
        const settings: LinkSettings = {
          ...event.data.settings,
          pinHash: 'pinHash' in event.data.settings ? event.data.settings.pinHash : current.pinHash,
          // Nor does one recorded before links named recipients: the link keeps its own.
          recipient: 'recipient' in event.data.settings ? (event.data.settings.recipient ?? null) : current.recipient,
        };
        return { ...state, current: { ...current, ...settings, recipient: settings.recipient ?? null } };
      }
      case 'LinkRecipientUnsubscribed': {
        const key = unsubscribedKey(event.data.distributionId, event.data.email);
        return { ...state, unsubscribed: new Set([...state.unsubscribed, key]) };
      }
      case 'LinkPinLocked':
        // Recorded before wrong PINs stopped locking links: it decides nothing now (the link opens with its PIN).
        return state;
      case 'LinkPinGuessed':
        return state.current?.distributionId === event.data.distributionId
          ? { ...state, current: { ...state.current, pinGuessedAt: event.data.at } }
          : state;
      case 'LinkExpiryNear':
        return state.current?.distributionId === event.data.distributionId
          ? { ...state, current: { ...state.current, expiryWarned: event.data.expiresAt } }
          : state;
      case 'LinkExpired':
        return state.current?.distributionId === event.data.distributionId
          ? { ...state, current: { ...state.current, expired: event.data.expiresAt } }
          : state;
      case 'TicketRecalled':
        return {
          ...state,
          current: null,
          recalled: new Map([...state.recalled, [event.data.distributionId, event.data.userId]]),
        };
      case 'DistributionVoided':
        return { ...state, voided: new Map([...state.voided, [event.data.distributionId, event.data.reference]]) };
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'Distribute': {
        const { ticket, userId, ticketId, distributionId, code, expiresAt, maxClicks, cost, label, pinHash, now } =
          command.data;
        const recipient = command.data.recipient;
        if (!ticket || ticket.ownerId !== userId) throw DISTRIBUTION_REFUSALS.notFound();
        if (ticket.isDuplicate) throw DISTRIBUTION_REFUSALS.duplicate();
        if (state.voided.has(distributionId)) throw DISTRIBUTION_REFUSALS.notMade();
        if (state.current) throw DISTRIBUTION_REFUSALS.distributed();
        return [
          {
            type: 'TicketDistributed',
            data: {
              ticketId,
              distributionId,
              userId,
              accountId: ticket.accountId,
              code,
              expiresAt,
              maxClicks,
              cost,
              ...(label === null ? {} : { label }),
              ...(pinHash === null ? {} : { pinHash }),
              ...(recipient ? { recipient } : {}),
              at: now,
            },
          },
        ];
      }
      case 'UnsubscribeRecipient': {
        const { ticketId, distributionId, email, now } = command.data;
        const owner =
          state.current?.distributionId === distributionId ? state.current.userId : state.recalled.get(distributionId);
        if (owner === undefined) throw DISTRIBUTION_REFUSALS.noDistribution();
        // Asked already (a second click, a mail client's and the person's): nothing more to record.
        if (state.unsubscribed.has(unsubscribedKey(distributionId, email))) return [];
        return [
          { type: 'LinkRecipientUnsubscribed', data: { ticketId, distributionId, userId: owner, email, at: now } },
        ];
      }
      case 'Recall': {
        const { ticketId, distributionId, userId, now } = command.data;
        if (state.recalled.get(distributionId) === userId && state.current?.distributionId !== distributionId) {
          throw DISTRIBUTION_REFUSALS.recalled();
        }
        if (!state.current || state.current.distributionId !== distributionId || state.current.userId !== userId) {
          throw DISTRIBUTION_REFUSALS.noDistribution();
        }
        return [{ type: 'TicketRecalled', data: { ticketId, distributionId, userId, at: now } }];
      }
      case 'Update': {
        const { ticketId, distributionId, userId, changes, clicks, now } = command.data;
        const { current } = state;
        if (state.recalled.get(distributionId) === userId && current?.distributionId !== distributionId) {
          throw DISTRIBUTION_REFUSALS.recalled();
        }
        if (!current || current.distributionId !== distributionId || current.userId !== userId) {
          throw DISTRIBUTION_REFUSALS.noDistribution();
        }
        const previous: Partial<LinkSettings> = {};
        for (const key of SETTINGS) {
          const wanted = changes[key];
          if (wanted !== undefined && !sameSetting(key, wanted, current[key]))
            Object.assign(previous, { [key]: current[key] });
        }
        if ('maxClicks' in previous && hasClickLimit(changes.maxClicks) && changes.maxClicks < clicks) {
          throw DISTRIBUTION_REFUSALS.limitBelowClicks(clicks);
        }
        // Nothing differs from what the link has: nothing to record (the same edit again changes nothing).
        if (Object.keys(previous).length === 0) return [];
        const {
          distributionId: _id,
          userId: _user,
          pinGuessedAt: _guessed,
          expiryWarned: _warned,
          expired: _expired,
          ...settings
        } = current;
        for (const key of Object.keys(previous) as Array<keyof LinkSettings>) {
          Object.assign(settings, { [key]: changes[key] });
        }
        return [{ type: 'LinkUpdated', data: { ticketId, distributionId, userId, settings, previous, at: now } }];
      }
      case 'ReportPinGuesses': {
        const { ticketId, distributionId, pinHash, failures, since, now } = command.data;
        const { current } = state;
        // Another link, or another PIN (the owner set a new one meanwhile): nothing to tell.
        if (current?.distributionId !== distributionId || current.pinHash !== pinHash) return [];
        // Told within the window already: once per window.
        const window = PIN_GUESS_WINDOW_MINUTES * 60_000;
        if (current.pinGuessedAt !== null && Date.parse(now) - Date.parse(current.pinGuessedAt) < window) return [];
        return [
          {
            type: 'LinkPinGuessed',
            data: { ticketId, distributionId, userId: current.userId, pinHash, failures, since, at: now },
          },
        ];
      }
      case 'WarnExpiry': {
        const { ticketId, distributionId, expiresAt, now } = command.data;
        const { current } = state;
        // Another link, an expiry changed since the job looked, none, or told already: nothing to say.
        if (current?.distributionId !== distributionId || current.expiresAt === null) return [];
        if (Date.parse(current.expiresAt) !== Date.parse(expiresAt)) return [];
        if (current.expiryWarned !== null && Date.parse(current.expiryWarned) === Date.parse(expiresAt)) return [];
        const left = Date.parse(expiresAt) - Date.parse(now);
        if (left <= 0 || left > LINK_EXPIRING_WITHIN_MS) return [];
        return [
          {
            type: 'LinkExpiryNear',
            data: { ticketId, distributionId, userId: current.userId, expiresAt: current.expiresAt, at: now },
          },
        ];
      }
      case 'MarkExpired': {
        const { ticketId, distributionId, expiresAt, now } = command.data;
        const { current } = state;
        // Another link, an expiry changed since the job looked, none, not past yet, or recorded already: nothing.
        if (current?.distributionId !== distributionId || current.expiresAt === null) return [];
        if (Date.parse(current.expiresAt) !== Date.parse(expiresAt) || Date.parse(expiresAt) > Date.parse(now)) {
          return [];
        }
        if (current.expired && Date.parse(current.expired) === Date.parse(expiresAt)) return [];
        return [
          {
            type: 'LinkExpired',
            data: { ticketId, distributionId, userId: current.userId, expiresAt: current.expiresAt, at: now },
          },
        ];
      }
      case 'Void': {
        const { now, ...voided } = command.data;
        // Made (what was paid for exists) or given up already: nothing to do.
        if (state.made.has(voided.distributionId) || state.voided.has(voided.distributionId)) return [];
        return [{ type: 'DistributionVoided', data: { ...voided, at: now } }];
      }
    }
  },
};
