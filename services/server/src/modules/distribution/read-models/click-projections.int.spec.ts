import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../infra/db/database.js';
import type { EventStore, RecordedEvent } from '../../../infra/event-store/event-store.port.js';
import { SqlEventStore } from '../../../infra/event-store/sql-event-store.js';
import { SubscriptionHost } from '../../../infra/subscriptions/subscription-host.js';
import { SubscriptionOperations } from '../../../infra/subscriptions/subscription-operations.js';
import { asSubscription, type Subscription } from '../../../infra/subscriptions/subscription.js';
import { projectionHarness } from '../../../testing/projection-harness.js';
import { createTestDatabase, testBackends } from '../../../testing/test-database.js';
import { clickStream, ticketDistributionStream } from '../distribution.events.js';
import { linkClickTimelineProjection } from './link-click-timeline.projection.js';
import { linksProjection } from './links.projection.js';

/**
 * The two click projections apply their clicks inside the database (migration 0013) where the events are there too;
 * `apply` does the same in the process. Both must build the same rows, an event either cannot apply must be parked by
 * the process alone, and the links' other events must stay the process's.
 */
const backends = testBackends().map(([name, embedded]) => [name, () => createTestDatabase({ embedded })] as const);

const projections = [linksProjection, linkClickTimelineProjection];
const names = projections.map((p) => p.name);
const minute = (m: number, s = 0) => new Date(Date.UTC(2026, 10, 22, 20, m, s, 123)).toISOString();

describe.each(backends)('click projections in the database and in the process (%s)', (_name, open) => {
  const harness = projectionHarness(open);
  const { warnings, logger, parked } = harness;
  let database: Database;
  let store: SqlEventStore;
  let inProcess: EventStore;
  beforeAll(() => ({ database, store, inProcess } = harness));

  const link = (maxClicks: number | null) => ({
    distributionId: randomUUID(),
    ticketId: randomUUID(),
    userId: randomUUID(),
    code: randomUUID().replaceAll('-', ''),
    maxClicks,
  });
  type Link = ReturnType<typeof link>;
  const distributed = (l: Link) =>
    store.appendToStream(ticketDistributionStream(l.ticketId), [
      {
        id: randomUUID(),
        type: 'TicketDistributed',
        data: { ...l, accountId: randomUUID(), expiresAt: null, cost: 5, at: minute(0) },
      },
    ]);
  const recalled = (l: Link) =>
    store.appendToStream(ticketDistributionStream(l.ticketId), [
      { id: randomUUID(), type: 'TicketRecalled', data: { ...l, at: minute(9) } },
    ]);
  /** Clicks as the recorder writes them: [link, n, at] each, one statement. */
  const clicks = (...list: Array<[Link, number, string, Record<string, unknown>?]>) =>
    store.recordAtPositions(
      list.map(([l, n, at, odd]) => ({
        streamId: clickStream(l.distributionId),
        revision: n - 1,
        id: randomUUID(),
        type: 'LinkClicked',
        data: { distributionId: l.distributionId, ticketId: l.ticketId, userId: l.userId, n, at, ...odd },
        metadata: {},
      })),
    );

  const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
  /** The rows of the links given (the events of earlier tests stay in the store). */
  const rows = async (...of: Link[]) => {
    const ids = of.map((l) => l.distributionId);
    return {
      links: await queryRows<{
        distribution_id: string;
        clicks: number;
        last_click_at: string | null;
        recalled: boolean;
      }>(
        database.db,
        sql`select distribution_id::text, clicks, ${iso('last_click_at')} as last_click_at,
                   recalled_at is not null as recalled
            from links where distribution_id::text in ${ids} order by distribution_id`,
      ),
      minutes: await queryRows<{ distribution_id: string; minute: string; clicks: number }>(
        database.db,
        sql`select distribution_id::text, ${iso('minute')} as minute, clicks from link_click_minutes
            where distribution_id::text in ${ids} order by distribution_id, minute`,
      ),
    };
  };
  /** A subscription of clicks whose database function is `inDatabase`; its `apply` notes the events it is given. */
  const clicksSeenBy = (name: string, inDatabase: string) => {
    const seen: string[] = [];
    const subscription: Subscription = asSubscription({
      name: `${name}-${randomUUID().slice(0, 8)}`,
      kind: 'projection',
      handles: ['LinkClicked'],
      inDatabase,
      async apply(events: readonly RecordedEvent[]) {
        seen.push(...events.map((e) => e.id));
      },
    });
    return { subscription, seen };
  };
  const rebuild = async (from: EventStore, batchSize: number, ...of: Link[]) => {
    await harness.rebuild(projections, from, batchSize);
    return rows(...of);
  };

  it('build the same rows from clicks between the links made and recalled, whatever the batch', async () => {
    const [a, b, c] = [link(null), link(5), link(2)];
    await distributed(a);
    await distributed(b);
    await clicks([a, 1, minute(1)], [a, 2, minute(1, 30)], [b, 1, minute(1, 59)], [a, 3, minute(2)]);
    await clicks([b, 3, minute(3)], [b, 2, minute(2, 10)], [a, 4, minute(3)]);
    await recalled(a);
    await clicks([a, 5, minute(4)], [b, 4, minute(4)]);
    await distributed(c);
    await clicks([c, 1, minute(5)], [b, 5, minute(5)], [c, 2, minute(5, 1)]);

    const expected = {
      links: [
        { ...a, clicks: 5, last: minute(4), recalled: true },
        { ...b, clicks: 5, last: minute(5), recalled: false },
        { ...c, clicks: 2, last: minute(5, 1), recalled: false },
      ]
        .sort((x, y) => x.distributionId.localeCompare(y.distributionId))
        .map((l) => ({
          distribution_id: l.distributionId,
          clicks: l.clicks,
          last_click_at: l.last,
          recalled: l.recalled,
        })),
      minutes: [
        [a, 1, 2],
        [a, 2, 1],
        [a, 3, 1],
        [a, 4, 1],
        [b, 1, 1],
        [b, 2, 1],
        [b, 3, 1],
        [b, 4, 1],
        [b, 5, 1],
        [c, 5, 2],
      ]
        .map(([l, m, n]) => ({
          distribution_id: (l as Link).distributionId,
          minute: minute(m as number).replace('.123', '.000'),
          clicks: n as number,
        }))
        .sort((x, y) => x.distribution_id.localeCompare(y.distribution_id) || x.minute.localeCompare(y.minute)),
    };
    for (const batchSize of [1, 2, 3, 500]) {
      expect(await rebuild(store, batchSize, a, b, c), `in the database, batches of ${batchSize}`).toEqual(expected);
    }
    expect(await rebuild(inProcess, 500, a, b, c), 'in the process').toEqual(expected);
    expect(await parked()).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('leave an event they cannot apply to the process, which parks it alone', async () => {
    const l = link(null);
    await distributed(l);
    await clicks([l, 1, minute(1)], [l, 2, minute(1)]);
    // Written by no recorder: a time the process cannot read, then a link id that is not one.
    const [badTime, badLink] = [randomUUID(), randomUUID()];
    await store.recordAtPositions([
      {
        streamId: clickStream(l.distributionId),
        revision: 2,
        id: badTime,
        type: 'LinkClicked',
        data: { distributionId: l.distributionId, ticketId: l.ticketId, userId: l.userId, n: 3, at: 'soon' },
        metadata: {},
      },
      {
        streamId: clickStream('nope'),
        revision: 0,
        id: badLink,
        type: 'LinkClicked',
        data: { distributionId: 'nope', ticketId: l.ticketId, userId: l.userId, n: 1, at: minute(2) },
        metadata: {},
      },
    ]);
    await clicks([l, 4, minute(3)]);

    warnings.length = 0;
    // Pages of two: the links' function meets the clicks too (it leaves a page that starts with a link made).
    const built = await rebuild(store, 2, l);
    expect(built.links.map((r) => [r.clicks, r.last_click_at])).toEqual([[4, minute(3)]]);
    expect(built.minutes.map((m) => [m.minute, m.clicks])).toEqual([
      ['2026-11-22T20:01:00.000Z', 2],
      ['2026-11-22T20:03:00.000Z', 1],
    ]);
    // The timeline cannot place either; the links' count cannot cast 'soon' or 'nope'.
    expect(await parked()).toEqual(
      [
        { subscription: 'link-click-timeline', event_id: badLink },
        { subscription: 'link-click-timeline', event_id: badTime },
        { subscription: 'links', event_id: badLink },
        { subscription: 'links', event_id: badTime },
      ].sort((x, y) => x.subscription.localeCompare(y.subscription) || x.event_id.localeCompare(y.event_id)),
    );
    expect(warnings.some((w) => w.includes('seatlink_project_link_click_minutes failed'))).toBe(true);
    expect(warnings.some((w) => w.includes('seatlink_project_link_clicks failed'))).toBe(true);
  });

  it('write nothing when the checkpoint moved under a step (a reset for a rebuild)', async () => {
    const l = link(null);
    await distributed(l);
    const head = await store.headPosition();
    await clicks([l, 1, minute(1)], [l, 2, minute(2)]);
    await new SubscriptionOperations(database, store, () => projections).reset(names);
    const before = await rows(l);
    // The step believes the checkpoint is at `head`; a reset has moved it back to the start.
    await expect(
      store.applyInDatabase('seatlink_project_link_click_minutes', 'link-click-timeline', head, 500),
    ).rejects.toMatchObject({ code: 'SL001' });
    expect(await rows(l)).toEqual(before);
    const [checkpoint] = await queryRows<{ position: string | null }>(
      database.db,
      sql`select position from subscription_checkpoints where name = 'link-click-timeline'`,
    );
    expect(checkpoint!.position).toBeNull();
    // A runner reads the checkpoint again and goes on from there.
    await new SubscriptionHost(database, store, projections, { logger }).drain({ names });
    expect((await rows(l)).minutes.map((m) => m.clicks)).toEqual([1, 1]);
  });

  it('run a subscription without a database function, or one that fails, through apply', async () => {
    const { subscription: failing, seen } = clicksSeenBy('failing', 'seatlink_no_such_function');
    const l = link(null);
    await clicks([l, 1, minute(1)], [l, 2, minute(1)]);
    warnings.length = 0;
    await new SubscriptionOperations(database, store, () => [failing]).reset([failing.name]);
    await new SubscriptionHost(database, store, [failing], { logger }).drain({ names: [failing.name] });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(warnings.some((w) => w.includes('seatlink_no_such_function failed'))).toBe(true);
    // A name that is not a plain SQL identifier is quoted as one: no such function.
    const odd = { ...failing, name: `${failing.name}-odd`, inDatabase: 'x(); drop table links; --' };
    await new SubscriptionOperations(database, store, () => [odd]).reset([odd.name]);
    await new SubscriptionHost(database, store, [asSubscription(odd)], { logger }).drain({ names: [odd.name] });
    expect(warnings.some((w) => w.includes('x(); drop table links; -- failed'))).toBe(true);
    const [table] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from links`);
    expect(table!.n).toBeGreaterThan(0);
  });

  it.skipIf(_name !== 'PostgreSQL')(
    'park nothing and move nothing when the database goes away in the middle of a page',
    async () => {
      // A database function whose connection is cut while it runs: the step fails as the database, not the event.
      await database.query(`create or replace function test_cut_off(p_epoch integer, p_tx bigint, p_pos bigint,
                              p_limit integer)
        returns table (o_epoch integer, o_tx bigint, o_pos bigint, o_applied integer, o_more boolean)
        language plpgsql as $$ begin perform pg_terminate_backend(pg_backend_pid()); end $$`);
      const { subscription: cut, seen } = clicksSeenBy('cut', 'test_cut_off');
      const l = link(null);
      await clicks([l, 1, minute(1)]);
      await new SubscriptionOperations(database, store, () => [cut]).reset([cut.name]);
      const before = await queryRows<{ position: string | null }>(
        database.db,
        sql`select position from subscription_checkpoints where name = ${cut.name}`,
      );
      await expect(
        new SubscriptionHost(database, store, [cut], { logger }).drain({ names: [cut.name] }),
      ).rejects.toThrow();
      expect(seen).toEqual([]);
      expect(
        await queryRows(database.db, sql`select position from subscription_checkpoints where name = ${cut.name}`),
      ).toEqual(before);
      expect(await queryRows(database.db, sql`select 1 from parked_events where subscription = ${cut.name}`)).toEqual(
        [],
      );
    },
  );
});
