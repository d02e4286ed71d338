import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import type { DistributeResponse, Ticket, User } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { type ApiProcess, startApiProcess } from '../../testing/api-process.js';
import { startSplitStack } from '../../testing/split-stack.js';
import { ApiClient, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { linkWalletWith, passes, type SimControl } from '../../testing/wallet-fixture.js';
import { creditStream } from '../credits/credits.events.js';
import { DistributionSettlements } from './distribution-settlements.service.js';
import { alterEventLog } from '../../testing/event-log-ddl.js';

const REQUESTS = 20;
const TICKETS_PER_REQUEST = 5;
const COST = 5;

/*
 * The reviewers' scenario: 20 distribute requests of 5 tickets each to a second API process, which is paused
 * (SIGSTOP) as soon as the first payment is written and killed (SIGKILL) 1.6 s later. Made deterministic by the
 * database: the links of the crash's tickets take 5 s to write (a trigger), so every request that paid is still
 * writing its links when the process dies, and PostgreSQL drops those writes as soon as it sees its client gone
 * (client_connection_check_interval); a few links take only 0.3 s, so they are written while the process is paused,
 * and it never learns that they were (their fate unknown to it). Then the same 20 requests are sent again with the
 * same Idempotency-Keys to the first API process — after the settle gave back what was paid and not made, or while
 * it does — and the balance must be exact: every link made is paid for once, no link whose payment came back exists.
 */
describe('a distribution request killed half-way, then retried', () => {
  let sim: WalletSimApp;
  let api: TestStack;
  let worker: INestApplicationContext;
  let admin: ApiClient;
  let user: ApiClient;
  let userId: string;
  let tickets: Ticket[];
  let sql: pg.Client;

  const balanceOf = async () => ((await user.request('GET', '/v1/me')).body as unknown as User).balance;

  beforeAll(async () => {
    let control: SimControl;
    ({ sim, control, api, worker, admin, user, userId } = await startSplitStack({
      DISTRIBUTION_SETTLE_AFTER_MS: '1000',
    }));
    sql = new pg.Client({ connectionString: api.config.DATABASE_URL });
    await sql.connect();
    // Every new session checks, during a long statement, whether its client is still there.
    await sql.query(
      `alter database ${pg.escapeIdentifier(sql.database!)} set client_connection_check_interval = '50ms'`,
    );
    ({ tickets } = await linkWalletWith(
      user,
      control,
      'crash@wallet.test',
      passes('crash', 2 * REQUESTS * TICKETS_PER_REQUEST),
      60_000,
    ));
    tickets.sort((a, b) => a.id.localeCompare(b.id));
    await subscriptionsCaughtUp(worker);
  }, 120_000);

  afterAll(async () => {
    await sql?.end();
    await worker?.close();
    await api?.close();
    await sim?.close();
  });

  /** Sends the requests to a second API process and kills it half-way; answers the requests' keys and bodies. */
  async function crash(batch: Ticket[]) {
    const requests = Array.from({ length: REQUESTS }, (_, i) => ({
      key: randomUUID(),
      body: { ticket_ids: batch.slice(i * TICKETS_PER_REQUEST, (i + 1) * TICKETS_PER_REQUEST).map((t) => t.id) },
    }));
    // A few links are written while the process is paused (0.3 s); the others would take 5 s and are dropped.
    const quick = batch.filter((_, i) => i % 7 === 0).map((t) => t.id);
    const literal = (ids: string[]) => `array[${ids.map((id) => `'${id}'`).join(',')}]::text[]`;
    await sql.query(`create or replace function crash_slow_links() returns trigger language plpgsql as $$
      begin
        if new.type = 'TicketDistributed' and new.data->>'ticketId' = any(${literal(batch.map((t) => t.id))}) then
          perform pg_sleep(case when new.data->>'ticketId' = any(${literal(quick)}) then 0.3 else 5 end);
        end if;
        return new;
      end $$`);
    await alterEventLog(
      sql,
      'create trigger crash_slow_links before insert on events for each row execute function crash_slow_links()',
    );
    const second: ApiProcess = await startApiProcess(api.config);
    try {
      const client = new ApiClient(second.baseUrl);
      await client.login('user@seatlink.test', 'User1234!');
      const [{ head }] = (
        await sql.query<{ head: string }>('select coalesce(max(global_position), 0) as head from events')
      ).rows as [{ head: string }];
      const sent = requests.map(({ key, body }) =>
        client.request('POST', '/v1/tickets/distribute', body, { headers: { 'idempotency-key': key } }).then(
          (res) => res.status,
          () => 'cut' as const,
        ),
      );
      // Paused as soon as the first payment is written, killed 1.6 s later.
      for (;;) {
        const paid = await sql.query(
          `select 1 from events where type = 'CreditsDebited' and stream_id = $1 and global_position > $2 limit 1`,
          [creditStream(userId), head],
        );
        if (paid.rows.length > 0) break;
        await new Promise((r) => setTimeout(r, 2));
      }
      await second.signal('SIGSTOP');
      await new Promise((r) => setTimeout(r, 1600));
      await second.signal('SIGKILL');
      const statuses = await Promise.all(sent);
      expect(statuses.filter((s) => s === 'cut').length).toBeGreaterThan(0);
    } finally {
      await second.stop();
      await alterEventLog(sql, 'drop trigger if exists crash_slow_links on events');
    }
    return { requests, quick };
  }

  /** Sends the requests again to the first API process: each answers its five links, none is refused or told to wait. */
  async function retry(requests: Awaited<ReturnType<typeof crash>>['requests']) {
    const answers = await Promise.all(
      requests.map(({ key, body }) =>
        user.request('POST', '/v1/tickets/distribute', body, { headers: { 'idempotency-key': key } }),
      ),
    );
    for (const [i, res] of answers.entries()) {
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      const made = res.body as unknown as DistributeResponse;
      expect(made.failed).toEqual([]);
      expect(made.distributions.map((d) => d.ticket_id).sort()).toEqual([...requests[i]!.body.ticket_ids].sort());
    }
    return answers.map((res) => res.body as unknown as DistributeResponse);
  }

  /** The money is exact: each link that exists paid once; no link whose payment came back exists. */
  async function expectExactMoney(batch: Ticket[], startBalance: number) {
    await subscriptionsCaughtUp(worker);
    const store = worker.get<EventStore>(EVENT_STORE);
    const refunded = new Set<string>();
    const debited = new Map<string, number>();
    for (const e of (await store.readStream(creditStream(userId))).events) {
      const data = e.data as { distributionIds?: string[]; amount: number };
      if (e.type === 'CreditsDebited') {
        for (const id of data.distributionIds!) debited.set(id, (debited.get(id) ?? 0) + 1);
      }
      if (e.type === 'CreditsRefunded') for (const id of data.distributionIds!) refunded.add(id);
    }
    const made: string[] = [];
    const voided: string[] = [];
    for (const ticket of batch) {
      for (const e of (await store.readStream(`ticket-distribution-${ticket.id}`)).events) {
        const id = (e.data as { distributionId: string }).distributionId;
        if (e.type === 'TicketDistributed') made.push(id);
        if (e.type === 'DistributionVoided') voided.push(id);
      }
    }
    // One link per ticket, each paid for once and never paid back; every voided link that was paid for paid back;
    // no link both made and voided (and the balance below says nothing else was paid or paid back).
    expect(made).toHaveLength(batch.length);
    expect(made.filter((id) => refunded.has(id))).toEqual([]);
    expect(made.filter((id) => debited.get(id) !== 1)).toEqual([]);
    expect(voided.filter((id) => debited.has(id) && !refunded.has(id))).toEqual([]);
    expect(voided.filter((id) => made.includes(id))).toEqual([]);
    expect(await balanceOf()).toBe(startBalance - COST * batch.length);
    return { voided };
  }

  it('gives back what was paid and not made, and a retry after the give-back pays again for what it makes', async () => {
    const batch = tickets.slice(0, REQUESTS * TICKETS_PER_REQUEST);
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 1000, reason: 'Test' });
    const { requests, quick } = await crash(batch);
    // The settle job (every second here) finds what the dead process paid for and did not make.
    await expect
      .poll(async () => (await sql.query('select 1 from distribution_settlements')).rows.length, { timeout: 20_000 })
      .toBe(0);
    await subscriptionsCaughtUp(worker);
    const madeBeforeRetry = (await user.request('GET', '/v1/tickets')).body.tickets as Ticket[];
    const linked = madeBeforeRetry.filter((t) => batch.some((b) => b.id === t.id) && t.is_distributed);
    // Only links written while the process was paused exist (paid for); what else it paid for came back.
    expect(linked.filter((t) => !quick.includes(t.id))).toEqual([]);
    expect(await balanceOf()).toBe(1000 - COST * linked.length);

    // The dead process's keys are free at once (not after a minute), and its voided links are made anew.
    const first = await retry(requests);
    const { voided } = await expectExactMoney(batch, 1000);
    expect(voided.length).toBeGreaterThan(0);
    // Again: the same answers, replayed; nothing paid.
    const again = await retry(requests);
    expect(again.map((a) => a.distributions)).toEqual(first.map((a) => a.distributions));
    await expectExactMoney(batch, 1000);
  }, 120_000);

  it('keeps the money exact when the retries and the settle run at the same time', async () => {
    const batch = tickets.slice(REQUESTS * TICKETS_PER_REQUEST);
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 1000, reason: 'Test' });
    const { requests } = await crash(batch);
    const settlements = worker.get(DistributionSettlements);
    // What the dead process left is due now, and settled while the retries run (their own payments are due only
    // when their settle delay has passed, as in life).
    const [{ now }] = (await sql.query<{ now: Date }>('select now()')).rows as [{ now: Date }];
    const due = () => sql.query('update distribution_settlements set due_at = now() where created_at <= $1', [now]);
    await due();
    await Promise.all([
      retry(requests),
      settlements.settleDue(),
      (async () => {
        for (let i = 0; i < 20; i++) {
          await due();
          await settlements.settleDue(5);
        }
      })(),
    ]);
    await expect
      .poll(async () => (await sql.query('select 1 from distribution_settlements')).rows.length, { timeout: 20_000 })
      .toBe(0);
    await expectExactMoney(batch, 1000);
  }, 120_000);
});
