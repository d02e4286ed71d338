import { type LinkState, linkState, type LinkStateFacts } from '@seatlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase, testBackends } from '../../testing/test-database.js';

/**
 * The link-state rule is written once per language: `linkState` of the contracts (the dashboard's badges) and
 * `seatlink_link_state` (what a claim and the recipient page decide on). Both must give the same answer to every
 * case, boundaries first.
 */
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();
const facts = (f: Partial<LinkStateFacts> = {}): LinkStateFacts & { ticketHeld: boolean } => ({
  recalled: false,
  ticketHeld: true,
  expiresAt: null,
  maxClicks: null,
  clicks: 0,
  ...f,
});

const CASES: Array<[string, LinkStateFacts & { ticketHeld: boolean }, LinkState]> = [
  ['a fresh link', facts(), 'active'],
  ['one click under its limit', facts({ maxClicks: 10, clicks: 9 }), 'active'],
  ['clicks equal to the limit', facts({ maxClicks: 10, clicks: 10 }), 'limit_reached'],
  ['clicks past the limit', facts({ maxClicks: 10, clicks: 11 }), 'limit_reached'],
  ['a limit of 1, clicked once', facts({ maxClicks: 1, clicks: 1 }), 'limit_reached'],
  ['a limit of 0 (unlimited), unclicked', facts({ maxClicks: 0, clicks: 0 }), 'active'],
  ['a limit of 0 (unlimited), clicked', facts({ maxClicks: 0, clicks: 50 }), 'active'],
  ['a negative limit (unlimited)', facts({ maxClicks: -1, clicks: 0 }), 'active'],
  ['no limit, a million clicks', facts({ maxClicks: null, clicks: 1_000_000 }), 'active'],
  ['expiry exactly now', facts({ expiresAt: at(0) }), 'expired'],
  ['expiry a millisecond ago', facts({ expiresAt: at(-1) }), 'expired'],
  ['expiry a millisecond ahead', facts({ expiresAt: at(1) }), 'active'],
  ['expired and at its limit', facts({ expiresAt: at(-1000), maxClicks: 2, clicks: 2 }), 'expired'],
  ['at its limit, expiring later', facts({ expiresAt: at(1000), maxClicks: 2, clicks: 2 }), 'limit_reached'],
  ['recalled', facts({ recalled: true }), 'recalled'],
  ['recalled and expired at once', facts({ recalled: true, expiresAt: at(-1000) }), 'recalled'],
  ['recalled at its limit', facts({ recalled: true, maxClicks: 3, clicks: 3 }), 'recalled'],
  ['its ticket no longer held', facts({ ticketHeld: false }), 'recalled'],
  [
    'its ticket gone, and expired',
    facts({ ticketHeld: false, expiresAt: at(-1000), maxClicks: 1, clicks: 1 }),
    'recalled',
  ],
];

const backends = testBackends().map(([name, embedded]) => [name, () => createTestDatabase({ embedded })] as const);

describe.each(backends)('the link-state rule in TypeScript and in SQL (%s)', (_name, open) => {
  let database: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ database, dispose } = await open());
  });
  afterAll(async () => dispose?.());

  it.each(CASES)('%s', async (_case, link, expected) => {
    const [row] = await database.query<{ state: LinkState }>(
      `select seatlink_link_state($1::boolean, $2::boolean, $3::timestamptz, $4::integer, $5::integer,
                                  $6::timestamptz) as state`,
      [link.recalled, link.ticketHeld, link.expiresAt, link.maxClicks, link.clicks, new Date(NOW).toISOString()],
    );
    expect({ ts: linkState(link, NOW), sql: row!.state }).toEqual({ ts: expected, sql: expected });
  });
});
