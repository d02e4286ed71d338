import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { fold } from '../../shared/event-sourcing/decider.js';
import { ticketIdOf, type WalletAccountCommand, walletAccountDecider } from './wallet-account.decider.js';
import type {
  PassDetails,
  TicketDiscovered,
  WalletAccountEvent,
  WalletAccountLinked,
  WalletAccountSyncFailed,
} from './wallet-account.events.js';

const now = '2026-11-22T12:00:00.000Z';
const later = '2026-11-22T13:00:00.000Z';
const linked: WalletAccountLinked = {
  type: 'WalletAccountLinked',
  data: {
    accountId: 'a1',
    userId: 'u1',
    email: 'alex@wallet.test',
    providerAccountId: 'acct_1',
    firstName: 'Alex',
    lastName: 'Carter',
    displayName: 'Alex Carter',
    at: now,
  },
};
const pass = (id: string, overrides: Partial<PassDetails> = {}): PassDetails => ({
  passId: id,
  barcode: `BC-${id}`,
  title: `Match ${id}`,
  subtitle: null,
  logo: null,
  saveUrl: null,
  venueName: 'Quayside Stadium',
  section: null,
  row: null,
  seat: null,
  nextGame: null,
  nextGameDate: null,
  ...overrides,
});
const discovered = (p: PassDetails, at = now): TicketDiscovered => ({
  type: 'TicketDiscovered',
  data: {
    accountId: 'a1',
    userId: 'u1',
    ticketId: ticketIdOf('a1', p.passId),
    dedupeKey: `barcode:${p.barcode}`,
    pass: p,
    at,
  },
});
const sync = (passes: PassDetails[], skipped: { passId: string | null; reason: string }[] = [], at = later) =>
  ({ type: 'RecordSync', data: { accountId: 'a1', passes, skipped, now: at } }) as const;
const syncFailed = (reason: string, at = later): WalletAccountSyncFailed => ({
  type: 'WalletAccountSyncFailed',
  data: { accountId: 'a1', reason, at },
});
/** A sync's ticket changes are complete (recorded by its last part). */
const synced = (at = later): WalletAccountEvent => ({
  type: 'WalletAccountSynced',
  data: { accountId: 'a1', userId: 'u1', at },
});
/** The end of the earlier sync that discovered the tickets of a `given`. */
const done = synced(now);
const failure = (reason: string) =>
  ({ type: 'RecordSyncFailure', data: { accountId: 'a1', reason, now: later } }) as const;

describe('wallet account decider: syncs that skip passes, give up and recover', () => {
  const spec = deciderSpec(walletAccountDecider);

  it('records the passes a sync left out, with why, once; and again only when they change', () => {
    const skipped = [
      { passId: 'p9', reason: 'next_game.date: not a date between 2000 and 2100' },
      { passId: null, reason: 'id: Invalid input: expected string, received number' },
    ];
    spec
      .given([linked])
      .when(sync([pass('p1')], skipped))
      .then([
        discovered(pass('p1'), later),
        {
          type: 'WalletPassesSkipped',
          data: { accountId: 'a1', skipped: [skipped[1]!, skipped[0]!], total: 2, at: later },
        },
        synced(),
      ]);
    const recorded: WalletAccountEvent = {
      type: 'WalletPassesSkipped',
      data: { accountId: 'a1', skipped: [skipped[1]!, skipped[0]!], total: 2, at: later },
    };
    // The same passes left out again (in another order): nothing new to say.
    spec
      .given([linked, discovered(pass('p1')), done, recorded])
      .when(sync([pass('p1')], [skipped[0]!, skipped[1]!]))
      .then([]);
    // None left out any more: said once.
    spec
      .given([linked, discovered(pass('p1')), done, recorded])
      .when(sync([pass('p1')], []))
      .then([{ type: 'WalletPassesSkipped', data: { accountId: 'a1', skipped: [], total: 0, at: later } }]);
  });

  it('keeps the ticket of a pass the wallet still lists but sent unusable this time', () => {
    spec
      .given([linked, discovered(pass('p1')), discovered(pass('p2')), done])
      .when(sync([pass('p1')], [{ passId: 'p2', reason: 'event.title: empty' }]))
      .then([
        {
          type: 'WalletPassesSkipped',
          data: { accountId: 'a1', skipped: [{ passId: 'p2', reason: 'event.title: empty' }], total: 1, at: later },
        },
      ]);
  });

  it('lists at most 50 skipped passes, and counts them all', () => {
    const many = Array.from({ length: 70 }, (_, i) => ({
      passId: `p${String(i).padStart(2, '0')}`,
      reason: 'pass: not an object',
    }));
    const events = walletAccountDecider.decide(sync([], many), fold(walletAccountDecider, [linked]));
    expect(events).toHaveLength(1);
    const event = events[0] as Extract<WalletAccountEvent, { type: 'WalletPassesSkipped' }>;
    expect(event.data.total).toBe(70);
    expect(event.data.skipped).toHaveLength(50);
  });

  it('records a sync that gave up, once per reason, and not for an account gone or waiting for a sign-in', () => {
    spec
      .given([linked])
      .when(failure('The wallet service could not be reached'))
      .then([syncFailed('The wallet service could not be reached')]);
    spec
      .given([linked, syncFailed('The wallet service could not be reached')])
      .when(failure('The wallet service could not be reached'))
      .then([]);
    spec
      .given([linked, syncFailed('The wallet service could not be reached')])
      .when(failure('The last sync could not be completed'))
      .then([syncFailed('The last sync could not be completed')]);
    spec
      .given([linked, { type: 'WalletAccountAuthFailed', data: { accountId: 'a1', reason: 'revoked', at: now } }])
      .when(failure('x'))
      .then([]);
    spec
      .given([linked, { type: 'WalletAccountDeleted', data: { accountId: 'a1', userId: 'u1', at: now } }])
      .when(failure('x'))
      .then([]);
    spec.given([]).when(failure('x')).then([]);
  });

  it('clears the sync error with the next sync that goes through', () => {
    spec
      .given([linked, discovered(pass('p1')), done, syncFailed('down')])
      .when(sync([pass('p1')]))
      .then([{ type: 'WalletAccountSyncRecovered', data: { accountId: 'a1', at: later } }]);
    spec
      .given([
        linked,
        discovered(pass('p1')),
        done,
        syncFailed('down'),
        { type: 'WalletAccountSyncRecovered', data: { accountId: 'a1', at: later } },
      ])
      .when(sync([pass('p1')]))
      .then([]);
  });

  it("keeps passes cleaned: text from older events is cleaned when folded, and a command's text before it is recorded", () => {
    const dirty = pass('p1', { title: 'Match\u0000 p1', venueName: '\u202EQuayside Stadium' });
    const state = fold(walletAccountDecider, [linked, discovered(dirty)]);
    expect(state.tickets.get('p1')!.pass).toEqual(pass('p1', { title: 'Match p1' }));
    // The wallet now sends the same pass, cleaned at the port: nothing changed.
    spec
      .given([linked, discovered(dirty), done])
      .when(sync([pass('p1', { title: 'Match p1' })]))
      .then([]);
    // A command that was not cleaned still records clean text.
    spec
      .given([linked])
      .when(sync([pass('p2', { subtitle: 'Round\u202E 10\u0007', row: '\uD800K' })]))
      .then([discovered(pass('p2', { subtitle: 'Round 10', row: '\uFFFDK' }), later), synced()]);
  });
});

describe('wallet account decider: a big sync in bounded parts', () => {
  const spec = deciderSpec(walletAccountDecider);
  const seven = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'].map((id) => pass(id));
  const inParts = (passes: PassDetails[], maxEvents: number): WalletAccountCommand => ({
    type: 'RecordSync',
    data: { accountId: 'a1', passes, now: later, maxEvents },
  });
  const gone = (id: string): WalletAccountEvent => ({
    type: 'TicketGone',
    data: { accountId: 'a1', userId: 'u1', ticketId: ticketIdOf('a1', id), dedupeKey: `barcode:BC-${id}`, at: later },
  });

  it('records at most maxEvents events a command, the first of what is left, until a command records fewer', () => {
    const first = seven.slice(0, 3).map((p) => discovered(p, later));
    const second = seven.slice(3, 6).map((p) => discovered(p, later));
    spec.given([linked]).when(inParts(seven, 3)).then(first);
    spec
      .given([linked, ...first])
      .when(inParts(seven, 3))
      .then(second);
    spec
      .given([linked, ...first, ...second])
      .when(inParts(seven, 3))
      .then([discovered(seven[6]!, later), synced()]);
    spec
      .given([linked, ...first, ...second, discovered(seven[6]!, later), synced()])
      .when(inParts(seven, 3))
      .then([]);
  });

  it('records those gone after the new ones, and the recovery last, once everything before it is in', () => {
    const failed = { type: 'WalletAccountSyncFailed', data: { accountId: 'a1', reason: 'Down', at: now } } as const;
    const held = [linked, discovered(pass('old1')), discovered(pass('old2')), failed];
    spec
      .given(held)
      .when(inParts([pass('p1')], 2))
      .then([discovered(pass('p1'), later), gone('old1')]);
    spec
      .given([...held, discovered(pass('p1'), later), gone('old1')])
      .when(inParts([pass('p1')], 2))
      .then([gone('old2'), { type: 'WalletAccountSyncRecovered', data: { accountId: 'a1', at: later } }]);
    // The sync's end comes in a part of its own when the part before it was full.
    spec
      .given([
        ...held,
        discovered(pass('p1'), later),
        gone('old1'),
        gone('old2'),
        { type: 'WalletAccountSyncRecovered', data: { accountId: 'a1', at: later } },
      ])
      .when(inParts([pass('p1')], 2))
      .then([synced()]);
  });

  it('completes a sync stopped between its parts with the next whole sync, recording each change once', () => {
    const partial = [linked, discovered(pass('p1'), later), discovered(pass('p2'), later)];
    spec
      .given(partial)
      .when(sync(seven))
      .then([...seven.slice(2).map((p) => discovered(p, later)), synced()]);
  });

  it('takes a pass read back from the database (its keys in another order) as the same pass', () => {
    const reordered = Object.fromEntries(Object.entries(pass('p1')).reverse()) as unknown as PassDetails;
    spec
      .given([linked, discovered(reordered), done])
      .when(sync([pass('p1')]))
      .then([]);
    const { saveUrl: _absent, ...older } = pass('p2');
    spec
      .given([linked, discovered(older), done])
      .when(sync([pass('p2')]))
      .then([]);
  });

  it('says when a sync that changed tickets is finished: after its last part, or with the next sync after one stopped half-way', () => {
    // A sync that changes nothing records nothing.
    spec.given([linked]).when(sync([])).then([]);
    spec
      .given([linked, discovered(pass('p1')), done])
      .when(sync([pass('p1')]))
      .then([]);
    // A full part cuts the end off; the part after it records it.
    const two = [pass('p1'), pass('p2')];
    spec
      .given([linked])
      .when(inParts(two, 2))
      .then(two.map((p) => discovered(p, later)));
    spec
      .given([linked, ...two.map((p) => discovered(p, later))])
      .when(inParts(two, 2))
      .then([synced()]);
    // A sync stopped before its end: the next one, even with nothing new, says the changes are complete.
    spec
      .given([linked, discovered(pass('p1'))])
      .when(sync([pass('p1')]))
      .then([synced()]);
    // A removal is a change as well.
    spec
      .given([linked, discovered(pass('p1')), done])
      .when(sync([]))
      .then([gone('p1'), synced()]);
  });

  it('folds many events at once to the state the events one by one give', () => {
    const history: WalletAccountEvent[] = [
      linked,
      ...seven.map((p) => discovered(p)),
      gone('p3'),
      {
        type: 'TicketChanged',
        data: {
          accountId: 'a1',
          userId: 'u1',
          ticketId: ticketIdOf('a1', 'p4'),
          pass: pass('p4', { seat: '9' }),
          at: later,
        },
      },
      discovered(pass('p3'), later),
    ];
    const oneByOne = history.reduce(walletAccountDecider.evolve, walletAccountDecider.initialState());
    expect(fold(walletAccountDecider, history)).toEqual(oneByOne);
    expect([...oneByOne.tickets.keys()].sort()).toEqual(seven.map((p) => p.passId));
    expect(oneByOne.tickets.get('p4')!.pass.seat).toBe('9');
  });
});
