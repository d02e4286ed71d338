import { randomUUID } from 'node:crypto';
import type { AuditEntry, DistributeResponse, Ticket, User, UserStateAt } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
import { linkWalletWith, passes, simControl, startSim } from '../../testing/wallet-fixture.js';
import { ClickRecorder } from './click-recorder.service.js';

const BROWSER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the audit log of a user, its CSV export and the user’s history at a moment (admins)', () => {
  let sim: WalletSimApp;
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  let user: ApiClient;
  let userId: string;
  let tickets: Ticket[];
  const moments: Record<string, string> = {};
  let made: DistributeResponse;
  let recalledId: string;

  const audits = async (query = '', client = admin) => {
    const res = await client.request('GET', `/v1/admin/users/${userId}/audits${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.audits as AuditEntry[];
  };

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    stack = await startTestStack({
      env: { WALLET_PROVIDER_URL: url, WALLET_SYNC_FOLLOW_UPS_MS: '', WALLET_SYNC_EVERY_MS: '600000' },
    });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 100, reason: 'Test' });
    ({ tickets } = await linkWalletWith(user, simControl(url), 'audit@wallet.test', passes('audit', 6)));
    await subscriptionsCaughtUp(stack.app);
    await sleep(20);
    moments.beforeLinks = new Date().toISOString();
    await sleep(20);
    // Three links in one request (bulk), a refusal, a single link, a recall and a refused recall.
    made = (await user.request('POST', '/v1/tickets/distribute', { ticket_ids: tickets.slice(0, 3).map((t) => t.id) }))
      .body as unknown as DistributeResponse;
    await user.request(
      'POST',
      '/v1/tickets/distribute',
      { ticket_ids: [tickets[0]!.id] },
      {
        headers: { 'x-forwarded-for': '10.9.8.7' },
      },
    );
    await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [tickets[3]!.id], max_clicks: 5 });
    const code = made.distributions[0]!.link.split('/l/')[1]!;
    for (let i = 0; i < 2; i++) {
      await fetch(`${stack.baseUrl}/v1/links/${code}/claim`, { method: 'POST', headers: { 'user-agent': BROWSER } });
    }
    await stack.app.get(ClickRecorder).flush();
    await subscriptionsCaughtUp(stack.app);
    await sleep(20);
    moments.afterLinks = new Date().toISOString();
    await sleep(20);
    recalledId = made.distributions[1]!.distribution_id;
    await user.request('POST', `/v1/distributions/${recalledId}/recall`);
    await user.request('POST', `/v1/distributions/${recalledId}/recall`);
    await subscriptionsCaughtUp(stack.app);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('lists every attempt newest first, as SPEC §3 Audit entry, with IP and the bulk flag', async () => {
    const all = await audits();
    expect(all.map((a) => [a.event_type, a.event_data.status])).toEqual([
      ['TICKET_RECALLED', 'FAILED'],
      ['TICKET_RECALLED', 'SUCCESS'],
      ['DISTRIBUTE', 'SUCCESS'],
      ['DISTRIBUTE', 'FAILED'],
      ['DISTRIBUTE', 'SUCCESS'],
      ['DISTRIBUTE', 'SUCCESS'],
      ['DISTRIBUTE', 'SUCCESS'],
    ]);
    const times = all.map((a) => a.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.filter((a) => a.metadata.bulk_action)).toHaveLength(3);
    expect(all.every((a) => a.metadata.ip_address === '127.0.0.1')).toBe(true);
    expect(all[3]!.event_data).toMatchObject({ code: 'ALREADY_DISTRIBUTED', reason: 'Ticket is already distributed' });
  });

  it('filters by type, status (repeated), id and IP prefixes, and dates', async () => {
    expect(await audits('?event_type=TICKET_RECALLED')).toHaveLength(2);
    expect(await audits('?status=FAILED')).toHaveLength(2);
    expect(await audits('?status=FAILED&status=SUCCESS')).toHaveLength(7);
    expect(await audits('?event_type=DISTRIBUTE&event_type=TICKET_RECALLED&status=SUCCESS')).toHaveLength(5);
    const ticketId = tickets[0]!.id;
    expect((await audits(`?ticket_id=${ticketId.slice(0, 8)}`)).every((a) => a.event_data.ticket_id === ticketId)).toBe(
      true,
    );
    expect(await audits(`?distribution_id=${recalledId}`)).toHaveLength(3);
    expect(await audits('?ip_address=127.0')).toHaveLength(7);
    expect(await audits('?ip_address=10.')).toHaveLength(0);
    // LIKE wildcards are taken literally.
    expect(await audits('?ticket_id=%25')).toHaveLength(0);
    expect(await audits('?ticket_id=_')).toHaveLength(0);
    expect(await audits(`?start_date=${moments.afterLinks}`)).toHaveLength(2);
    expect(await audits(`?end_date=${moments.beforeLinks}`)).toHaveLength(0);
    expect(await audits(`?start_date=${moments.beforeLinks}&end_date=${moments.afterLinks}`)).toHaveLength(5);
  });

  it('pages with limit and offset', async () => {
    const all = await audits();
    expect((await audits('?limit=3')).map((a) => a.id)).toEqual(all.slice(0, 3).map((a) => a.id));
    expect((await audits('?limit=3&offset=3')).map((a) => a.id)).toEqual(all.slice(3, 6).map((a) => a.id));
    expect(await audits('?limit=3&offset=7')).toEqual([]);
  });

  it.each([
    ['?status=MAYBE', 'status'],
    ['?event_type=DELETE', 'event_type'],
    ['?limit=0', 'limit must be at least 1'],
    ['?limit=501', 'limit must be at most 500'],
    ['?limit=ten', 'limit must be a whole number'],
    ['?offset=-1', 'offset must be at least 0'],
    ['?start_date=yesterday', 'start_date must be a date and time'],
    ['?start_date=2026-02-01T00:00:00Z&end_date=2026-01-01T00:00:00Z', 'start_date must not be after end_date'],
    ['?ticket_id=%00', 'ticket_id contains characters that are not allowed'],
    ['?ip_address=%E2%80%AE1.2', 'ip_address contains characters that are not allowed'],
    [`?ticket_id=${'a'.repeat(101)}`, 'ticket_id is too long'],
  ])('answers 400 for %s', async (query, message) => {
    const res = await admin.request('GET', `/v1/admin/users/${userId}/audits${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
  });

  it('is for admins only, and a user id must be a UUID', async () => {
    expect((await user.request('GET', `/v1/admin/users/${userId}/audits`)).status).toBe(403);
    expect((await new ApiClient(stack.baseUrl).request('GET', `/v1/admin/users/${userId}/audits`)).status).toBe(401);
    expect((await admin.request('GET', '/v1/admin/users/nope/audits')).status).toBe(400);
    expect(
      await (async () => (await admin.request('GET', `/v1/admin/users/${randomUUID()}/audits`)).body.audits)(),
    ).toEqual([]);
  });

  it('exports the filtered view as CSV (every page), with a spreadsheet formula made harmless', async () => {
    await database.query(
      `insert into audit_entries (id, user_id, created_at, event_type, status, ticket_id, distribution_id, ip_address,
                                  bulk_action, event_data)
       values ($1, $2, now() - interval '1 day', 'DISTRIBUTE', 'FAILED', null, null, '=HYPERLINK("http://x")', false, '{}')`,
      [randomUUID(), userId],
    );
    const res = await fetch(`${stack.baseUrl}/v1/admin/users/${userId}/audits.csv?status=FAILED&limit=1`, {
      headers: { cookie: admin.sessionCookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain(`audit-${userId}.csv`);
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('Event Time,Status,Event Type,Ticket ID,Distribution ID,IP Address,Bulk Action,Details');
    // Every FAILED entry, not just the page of one.
    expect(lines).toHaveLength(1 + 3);
    expect(lines.some((l) => l.includes(`"'=HYPERLINK(""http://x"")"`))).toBe(true);
    expect(lines.slice(1).every((l) => l.includes(',FAILED,'))).toBe(true);
    const forbidden = await fetch(`${stack.baseUrl}/v1/admin/users/${userId}/audits.csv`, {
      headers: { cookie: user.sessionCookie },
    });
    expect(forbidden.status).toBe(403);
  });

  it('replays the user’s tickets, links and balance as they stood at a moment', async () => {
    const at = async (moment: string) => {
      const res = await admin.request('GET', `/v1/admin/users/${userId}/history?at=${encodeURIComponent(moment)}`);
      expect(res.status).toBe(200);
      return res.body as unknown as UserStateAt;
    };
    const before = await at(moments.beforeLinks!);
    expect(before.balance).toBe(100);
    expect(before.accounts.map((a) => a.email)).toEqual(['audit@wallet.test']);
    expect(before.tickets).toHaveLength(6);
    expect(before.tickets.every((t) => t.distribution === null)).toBe(true);

    const during = await at(moments.afterLinks!);
    expect(during.balance).toBe(80);
    const linked = during.tickets.filter((t) => t.distribution);
    expect(linked).toHaveLength(4);
    const clicked = during.tickets.find(
      (t) => t.distribution?.distribution_id === made.distributions[0]!.distribution_id,
    );
    expect(clicked?.distribution).toMatchObject({ clicks: 2, link: made.distributions[0]!.link, max_clicks: null });

    const now = await at(new Date().toISOString());
    expect(now.tickets.filter((t) => t.distribution)).toHaveLength(3);
    expect(now.tickets.some((t) => t.distribution?.distribution_id === recalledId)).toBe(false);
    expect(now.balance).toBe(80);
  });

  it('answers 400 for a moment that is no date, and 403 to a user', async () => {
    const bad = await admin.request('GET', `/v1/admin/users/${userId}/history?at=soon`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('at must be a date and time');
    expect((await admin.request('GET', `/v1/admin/users/${userId}/history`)).status).toBe(400);
    expect((await user.request('GET', `/v1/admin/users/${userId}/history?at=${new Date().toISOString()}`)).status).toBe(
      403,
    );
  });

  it('shows a user created without history an empty past', async () => {
    const fresh = await createVerifiedUser(stack.app);
    const res = await admin.request('GET', `/v1/admin/users/${fresh.id}/history?at=${new Date().toISOString()}`);
    expect(res.body).toMatchObject({ balance: 0, accounts: [], tickets: [] });
  });
});
