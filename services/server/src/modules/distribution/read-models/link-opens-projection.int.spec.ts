import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../infra/db/database.js';
import type { EventStore } from '../../../infra/event-store/event-store.port.js';
import { SqlEventStore } from '../../../infra/event-store/sql-event-store.js';
import { SubscriptionHost } from '../../../infra/subscriptions/subscription-host.js';
import { SubscriptionOperations } from '../../../infra/subscriptions/subscription-operations.js';
import { projectionHarness } from '../../../testing/projection-harness.js';
import { createTestDatabase, testBackends } from '../../../testing/test-database.js';
import { clickStream, openStream } from '../distribution.events.js';
import { linkOpensProjection } from './link-opens.projection.js';

/**
 * The link-opens projection sums its opens and claims inside the database (seatlink_project_link_opens) where the
 * events are there too; `apply` does the same in the process. Both must build the same rows, whatever the pages, and
 * an event the function cannot read must be left to the process, which parks it alone.
 */
const backends = testBackends().map(([name, embedded]) => [name, () => createTestDatabase({ embedded })] as const);
const names = [linkOpensProjection.name];
/** 2026-11-22 at 23:mm:ss.123 UTC; minutes past 59 run into the next day. */
const at = (m: number, s = 0) => new Date(Date.UTC(2026, 10, 22, 23, m, s, 123)).toISOString();

describe.each(backends)('link opens in the database and in the process (%s)', (_name, open) => {
  const harness = projectionHarness(open);
  const { warnings, logger } = harness;
  let database: Database;
  let store: SqlEventStore;
  let inProcess: EventStore;
  beforeAll(() => ({ database, store, inProcess } = harness));

  const link = (userId = randomUUID()) => ({ distributionId: randomUUID(), ticketId: randomUUID(), userId });
  type Link = ReturnType<typeof link>;
  /** A device's first open of a link, as LinkOpens records it (`when` may be anything, to test what is not a time). */
  const opened = (l: Link, when: string, id = randomUUID()) =>
    store.appendToStream(
      openStream(l.distributionId),
      [
        {
          id,
          type: 'LinkOpened',
          data: { ...l, deviceHash: randomUUID(), device: 'iPhone', referrer: null, at: when },
        },
      ],
      { expectedRevision: 'any' },
    );
  const clicks = new Map<string, number>();
  const clicked = (l: Link, when: string) => {
    const n = (clicks.get(l.distributionId) ?? 0) + 1;
    clicks.set(l.distributionId, n);
    return store.recordAtPositions([
      {
        streamId: clickStream(l.distributionId),
        revision: n - 1,
        id: randomUUID(),
        type: 'LinkClicked',
        data: { ...l, n, at: when },
        metadata: {},
      },
    ]);
  };

  const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
  /** The rows of the links and holders given (the events of earlier tests stay in the store). */
  const rows = async (...of: Link[]) => {
    const ids = of.map((l) => l.distributionId);
    const users = [...new Set(of.map((l) => l.userId))];
    return {
      minutes: await queryRows(
        database.db,
        sql`select distribution_id::text, ${iso('minute')} as minute, opens from link_open_minutes
            where distribution_id::text in ${ids} order by distribution_id, minute`,
      ),
      totals: await queryRows(
        database.db,
        sql`select distribution_id::text, user_id::text, opens, ${iso('last_open_at')} as last_open_at
            from link_open_totals where distribution_id::text in ${ids} order by distribution_id`,
      ),
      days: await queryRows(
        database.db,
        sql`select user_id::text, day::text, opens, claims from link_activity_days
            where user_id::text in ${users} order by user_id, day`,
      ),
    };
  };
  const parked = async () =>
    (await harness.parked()).filter((p) => p.subscription === 'link-opens').map(({ event_id }) => ({ event_id }));
  const rebuild = async (from: EventStore, batchSize: number, ...of: Link[]) => {
    await harness.rebuild([linkOpensProjection], from, batchSize);
    return rows(...of);
  };
  const byId = (x: { distribution_id: string }, y: { distribution_id: string }) =>
    x.distribution_id.localeCompare(y.distribution_id);

  it('sum opens per minute, link and day and claims per day alike, whatever the pages, across midnight', async () => {
    const [a, b] = [link(), link()];
    const c = link(a.userId);
    await opened(a, at(58, 10));
    await opened(a, at(58, 50));
    await clicked(a, at(58, 55));
    await opened(b, at(59, 59));
    await clicked(b, at(60, 1));
    await opened(a, at(61));
    await clicked(a, at(61, 5));
    await opened(c, at(62));
    await clicked(c, at(62, 30));
    await clicked(c, at(63));

    const minute = (m: number) => at(m).replace(/:\d{2}\.123Z$/, ':00.000Z');
    const expected = {
      minutes: [
        { distribution_id: a.distributionId, minute: minute(58), opens: 2 },
        { distribution_id: a.distributionId, minute: minute(61), opens: 1 },
        { distribution_id: b.distributionId, minute: minute(59), opens: 1 },
        { distribution_id: c.distributionId, minute: minute(62), opens: 1 },
      ].sort((x, y) => byId(x, y) || x.minute.localeCompare(y.minute)),
      totals: [
        { distribution_id: a.distributionId, user_id: a.userId, opens: 3, last_open_at: at(61) },
        { distribution_id: b.distributionId, user_id: b.userId, opens: 1, last_open_at: at(59, 59) },
        { distribution_id: c.distributionId, user_id: a.userId, opens: 1, last_open_at: at(62) },
      ].sort(byId),
      days: [
        { user_id: a.userId, day: '2026-11-22', opens: 2, claims: 1 },
        { user_id: a.userId, day: '2026-11-23', opens: 2, claims: 3 },
        { user_id: b.userId, day: '2026-11-22', opens: 1, claims: 0 },
        { user_id: b.userId, day: '2026-11-23', opens: 0, claims: 1 },
      ].sort((x, y) => x.user_id.localeCompare(y.user_id) || x.day.localeCompare(y.day)),
    };
    for (const batchSize of [1, 2, 3, 500]) {
      expect(await rebuild(store, batchSize, a, b, c), `in the database, pages of ${batchSize}`).toEqual(expected);
    }
    expect(await rebuild(inProcess, 500, a, b, c), 'in the process').toEqual(expected);
    expect(await parked()).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('apply a claim storm without reading a click into the process (before any event it cannot read)', async () => {
    const l = link();
    await opened(l, at(1));
    for (let i = 0; i < 50; i++) await clicked(l, at(2, i));
    const seen: string[] = [];
    const watched = {
      ...linkOpensProjection,
      apply: async (...args: Parameters<typeof linkOpensProjection.apply>) => {
        seen.push(...args[0].map((e) => e.type));
        return linkOpensProjection.apply(...args);
      },
    };
    await new SubscriptionOperations(database, store, () => [watched]).reset(names);
    await new SubscriptionHost(database, store, [watched], { batchSize: 20, logger }).drain({ names });
    expect(seen).toEqual([]);
    expect((await rows(l)).days).toEqual([{ user_id: l.userId, day: '2026-11-22', opens: 1, claims: 50 }]);
  });

  it('leave an event it cannot read to the process, which parks it alone', async () => {
    const l = link();
    await opened(l, at(1));
    const bad = randomUUID();
    await opened(l, 'soon', bad);
    await clicked(l, at(2));
    await opened(l, at(3));

    warnings.length = 0;
    const built = await rebuild(store, 500, l);
    expect(built.totals).toEqual([
      { distribution_id: l.distributionId, user_id: l.userId, opens: 2, last_open_at: at(3) },
    ]);
    expect(built.days).toEqual([{ user_id: l.userId, day: '2026-11-22', opens: 2, claims: 1 }]);
    expect(await parked()).toEqual([{ event_id: bad }]);
    expect(warnings.some((w) => w.includes('seatlink_project_link_opens failed'))).toBe(true);
  });
});
