import { type Decider, DomainError } from '../../shared/event-sourcing/decider.js';
import { uuidV5In } from '../../shared/uuid-v5.js';
import { cleanPassDetails } from './pass-text.js';
import {
  dedupeKeyOf,
  MAX_SKIPPED_LISTED,
  type PassDetails,
  type PassEvent,
  type SkippedPassRecord,
  type WalletAccountEvent,
  type WalletAccountLinked,
  type WalletLinkEvent,
} from './wallet-account.events.js';

const ticketId = uuidV5In('4e7a9c12-5b3d-4f8e-a6c1-2d9b0e7f3a58');

/** A ticket's id: the same pass in the same account is always the same ticket. */
export const ticketIdOf = (accountId: string, passId: string) => ticketId(`${accountId}:${passId}`);

export interface WalletAccountState {
  exists: boolean;
  deleted: boolean;
  accountId: string | null;
  userId: string | null;
  email: string;
  inError: boolean;
  /** Why the last sync gave up, until a sync goes through; null when none did. */
  syncError: string | null;
  /** The passes left out as last recorded (WalletPassesSkipped), as a comparable key. */
  skipped: string;
  /** The tickets held now, by pass id: the ticket and what its pass looked like (its text cleaned). */
  tickets: Map<string, TicketHeld>;
  /** The pass id of each ticket held (TicketGone names the ticket). */
  passOfTicket: Map<string, string>;
  /** Ticket events recorded since the last WalletAccountSynced: the next sync to finish records one. */
  unsyncedChanges: boolean;
}

interface TicketHeld {
  ticketId: string;
  dedupeKey: string;
  pass: PassDetails;
}

export type WalletAccountCommand =
  | { type: 'LinkAccount'; data: Omit<WalletAccountLinked['data'], 'at'> & { now: string } }
  | { type: 'Reauthenticate'; data: { accountId: string; userId: string; email: string; now: string } }
  | { type: 'RecordAuthFailure'; data: { accountId: string; reason: string; now: string } }
  | { type: 'DeleteAccount'; data: { accountId: string; userId: string; now: string } }
  | {
      type: 'RecordSync';
      data: {
        accountId: string;
        passes: PassDetails[];
        skipped?: SkippedPassRecord[];
        now: string;
        /**
         * At most this many events: the first of what the sync has to record (new and changed tickets in the wallet's
         * order, then those gone, then what was left out, then the recovery). The job sends the sync again until a
         * command records fewer, so a big sync is appended in bounded parts; each part decides on what the stream
         * holds, so a sync stopped between parts is completed by the next one, nothing recorded twice.
         */
        maxEvents?: number;
      };
    }
  | { type: 'RecordSyncFailure'; data: { accountId: string; reason: string; now: string } };

export const ACCOUNT_NOT_FOUND = 'Account not found';

/** Every field of a pass, so that none is left out of the comparison (the compiler holds this to PassDetails). */
const PASS_FIELDS = Object.keys({
  passId: true,
  barcode: true,
  title: true,
  subtitle: true,
  logo: true,
  saveUrl: true,
  venueName: true,
  section: true,
  row: true,
  seat: true,
  nextGame: true,
  nextGameDate: true,
} satisfies Record<keyof PassDetails, true>) as Array<keyof PassDetails>;

/**
 * Everything but a change to a pass's shown details is "the same": field by field, as the events read back from the
 * database hold their keys in another order (jsonb), and an absent field (older events) is none.
 */
const samePass = (a: PassDetails, b: PassDetails) => PASS_FIELDS.every((k) => (a[k] ?? null) === (b[k] ?? null));

/** The skipped passes as recorded: in a stable order (the provider's order may change), at most MAX_SKIPPED_LISTED. */
function skippedList(skipped: readonly SkippedPassRecord[]): { skipped: SkippedPassRecord[]; total: number } {
  const sorted = [...skipped].sort(
    (a, b) => (a.passId ?? '').localeCompare(b.passId ?? '') || a.reason.localeCompare(b.reason),
  );
  return { skipped: sorted.slice(0, MAX_SKIPPED_LISTED), total: skipped.length };
}
const skippedKey = (list: { skipped: SkippedPassRecord[]; total: number }) => JSON.stringify(list);
const NONE_SKIPPED = skippedKey({ skipped: [], total: 0 });

const mustBeLive = (state: WalletAccountState, userId?: string) => {
  // Another user's account answers exactly like a missing one.
  if (!state.exists || state.deleted || (userId !== undefined && state.userId !== userId)) {
    throw new DomainError(ACCOUNT_NOT_FOUND, 'ACCOUNT_NOT_FOUND', 404);
  }
};

/** Copies of a state's tickets (and their index by ticket id) that an evolve may change in place. */
interface OwnedTickets {
  tickets: Map<string, TicketHeld>;
  passOf: Map<string, string>;
}
const ownTickets = (state: WalletAccountState): OwnedTickets => ({
  tickets: new Map(state.tickets),
  passOf: new Map(state.passOfTicket),
});

/** The state after one event; the tickets' events write into `owned` (copies no other state shares). */
function applyEvent(state: WalletAccountState, event: WalletAccountEvent, owned: OwnedTickets | null) {
  switch (event.type) {
    case 'WalletAccountLinked':
      return {
        ...state,
        exists: true,
        accountId: event.data.accountId,
        userId: event.data.userId,
        email: event.data.email,
      };
    case 'WalletAccountReauthenticated':
      return { ...state, inError: false };
    case 'WalletAccountAuthFailed':
      return { ...state, inError: true };
    case 'WalletPassesSkipped':
      return { ...state, skipped: skippedKey({ skipped: event.data.skipped, total: event.data.total }) };
    case 'WalletAccountSyncFailed':
      return { ...state, syncError: event.data.reason };
    case 'WalletAccountSyncRecovered':
      return { ...state, syncError: null };
    case 'WalletAccountSynced':
      return { ...state, unsyncedChanges: false };
    case 'WalletAccountDeleted':
      return { ...state, deleted: true };
    case 'TicketDiscovered': {
      const { tickets, passOf } = owned!;
      const { ticketId, dedupeKey } = event.data;
      const pass = cleanPassDetails(event.data.pass);
      tickets.set(pass.passId, { ticketId, dedupeKey, pass });
      passOf.set(ticketId, pass.passId);
      return { ...state, tickets, passOfTicket: passOf, unsyncedChanges: true };
    }
    case 'TicketChanged': {
      const { tickets, passOf } = owned!;
      const known = tickets.get(event.data.pass.passId);
      if (known) tickets.set(event.data.pass.passId, { ...known, pass: cleanPassDetails(event.data.pass) });
      return { ...state, tickets, passOfTicket: passOf, unsyncedChanges: true };
    }
    case 'TicketGone': {
      const { tickets, passOf } = owned!;
      const passId = passOf.get(event.data.ticketId);
      if (passId !== undefined && tickets.get(passId)?.ticketId === event.data.ticketId) tickets.delete(passId);
      passOf.delete(event.data.ticketId);
      return { ...state, tickets, passOfTicket: passOf, unsyncedChanges: true };
    }
  }
}

export const walletAccountDecider: Decider<WalletAccountState, WalletAccountCommand, WalletAccountEvent> = {
  initialState: () => ({
    exists: false,
    deleted: false,
    accountId: null,
    userId: null,
    email: '',
    inError: false,
    syncError: null,
    skipped: NONE_SKIPPED,
    tickets: new Map(),
    passOfTicket: new Map(),
    unsyncedChanges: false,
  }),
  evolve: (state, event) => {
    const touchesTickets =
      event.type === 'TicketDiscovered' || event.type === 'TicketChanged' || event.type === 'TicketGone';
    return touchesTickets ? applyEvent(state, event, ownTickets(state)) : applyEvent(state, event, null);
  },
  // A stream of thousands of tickets is folded with one copy of its tickets, not one per event.
  evolveAll: (state, events) => {
    const owned = ownTickets(state);
    return events.reduce((s, e) => applyEvent(s, e, owned), state);
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'LinkAccount': {
        if (state.exists) throw new DomainError('This account is already linked', 'ACCOUNT_ALREADY_LINKED', 409);
        const { now, ...data } = command.data;
        return [{ type: 'WalletAccountLinked', data: { ...data, at: now } }];
      }
      case 'Reauthenticate': {
        mustBeLive(state, command.data.userId);
        if (command.data.email !== state.email) {
          throw new DomainError('Sign in with the e-mail address of this account', 'WALLET_EMAIL_MISMATCH', 400);
        }
        return [{ type: 'WalletAccountReauthenticated', data: { accountId: state.accountId!, at: command.data.now } }];
      }
      case 'RecordAuthFailure': {
        if (!state.exists || state.deleted || state.inError) return [];
        const { accountId, reason, now } = command.data;
        return [{ type: 'WalletAccountAuthFailed', data: { accountId, reason, at: now } }];
      }
      case 'DeleteAccount': {
        mustBeLive(state, command.data.userId);
        const { accountId, userId, now } = command.data;
        // Its tickets leave with it (each one's claim on its pass is given back).
        return [
          ...[...state.tickets.values()].map((t) => ({
            type: 'TicketGone' as const,
            data: { accountId, userId, ticketId: t.ticketId, dedupeKey: t.dedupeKey, at: now },
          })),
          { type: 'WalletAccountDeleted', data: { accountId, userId, at: now } },
        ];
      }
      case 'RecordSyncFailure': {
        // Nothing to say for an account gone or waiting for its owner to sign in, or the same reason again.
        if (!state.exists || state.deleted || state.inError) return [];
        const { accountId, reason, now } = command.data;
        if (state.syncError === reason) return [];
        return [{ type: 'WalletAccountSyncFailed', data: { accountId, reason, at: now } }];
      }
      case 'RecordSync': {
        // A sync that finishes after the account was deleted or fell into error changes nothing.
        if (!state.exists || state.deleted || state.inError) return [];
        const { accountId, passes, now } = command.data;
        const userId = state.userId!;
        const seen = new Set<string>();
        // A pass the wallet still lists but sent unusable this time keeps its ticket: it is not gone.
        const kept = new Set((command.data.skipped ?? []).map((s) => s.passId).filter((id) => id !== null));
        const events: WalletAccountEvent[] = [];
        for (const sent of passes) {
          if (seen.has(sent.passId)) continue;
          seen.add(sent.passId);
          const pass = cleanPassDetails(sent);
          const known = state.tickets.get(pass.passId);
          if (!known) {
            const ticketId = ticketIdOf(accountId, pass.passId);
            events.push({
              type: 'TicketDiscovered',
              data: { accountId, userId, ticketId, dedupeKey: dedupeKeyOf(pass), pass, at: now },
            });
          } else if (!samePass(known.pass, pass)) {
            events.push({
              type: 'TicketChanged',
              data: { accountId, userId, ticketId: known.ticketId, pass, at: now },
            });
          }
        }
        for (const [passId, t] of state.tickets) {
          if (!seen.has(passId) && !kept.has(passId)) {
            events.push({
              type: 'TicketGone',
              data: { accountId, userId, ticketId: t.ticketId, dedupeKey: t.dedupeKey, at: now },
            });
          }
        }
        const skipped = skippedList(command.data.skipped ?? []);
        if (skippedKey(skipped) !== state.skipped) {
          events.push({ type: 'WalletPassesSkipped', data: { accountId, ...skipped, at: now } });
        }
        if (state.syncError !== null) events.push({ type: 'WalletAccountSyncRecovered', data: { accountId, at: now } });
        // The sync's last part (nothing cut off below) says its ticket changes are complete: those of this sync's
        // earlier parts, and those a sync stopped half-way left unfinished.
        const changesTickets = (e: WalletAccountEvent) =>
          e.type === 'TicketDiscovered' || e.type === 'TicketChanged' || e.type === 'TicketGone';
        if (state.unsyncedChanges || events.some(changesTickets)) {
          events.push({ type: 'WalletAccountSynced', data: { accountId, userId, at: now } });
        }
        const max = command.data.maxEvents;
        return max !== undefined && events.length > max ? events.slice(0, Math.max(1, max)) : events;
      }
    }
  },
};

/** The claim of one user on one external account: linked once, free again once the account is deleted. */
export const walletLinkDecider: Decider<
  { accountId: string | null },
  { type: 'ClaimLink' | 'ReleaseLink'; data: { userId: string; email: string; accountId: string } },
  WalletLinkEvent
> = {
  initialState: () => ({ accountId: null }),
  evolve: (_state, event) => ({ accountId: event.type === 'WalletLinkClaimed' ? event.data.accountId : null }),
  decide: (command, state) => {
    if (command.type === 'ReleaseLink') {
      return state.accountId === command.data.accountId ? [{ type: 'WalletLinkReleased', data: command.data }] : [];
    }
    if (state.accountId === command.data.accountId) return [];
    if (state.accountId !== null) {
      throw new DomainError('This account is already linked', 'ACCOUNT_ALREADY_LINKED', 409);
    }
    return [{ type: 'WalletLinkClaimed', data: command.data }];
  },
};

/** Who holds a pass, in claim order: the first is the master. */
export const passDecider: Decider<
  { holders: string[] },
  | { type: 'ClaimPass'; data: Omit<Extract<PassEvent, { type: 'PassClaimed' }>['data'], 'at'> & { now: string } }
  | { type: 'ReleasePass'; data: { dedupeKey: string; ticketId: string; now: string } },
  PassEvent
> = {
  initialState: () => ({ holders: [] }),
  evolve: (state, event) =>
    event.type === 'PassClaimed'
      ? { holders: [...state.holders, event.data.ticketId] }
      : { holders: state.holders.filter((t) => t !== event.data.ticketId) },
  decide: (command, state) => {
    const held = state.holders.includes(command.data.ticketId);
    if (command.type === 'ClaimPass') {
      if (held) return [];
      const { now, ...data } = command.data;
      return [{ type: 'PassClaimed', data: { ...data, at: now } }];
    }
    if (!held) return [];
    return [
      {
        type: 'PassReleased',
        data: { dedupeKey: command.data.dedupeKey, ticketId: command.data.ticketId, at: command.data.now },
      },
    ];
  },
};
