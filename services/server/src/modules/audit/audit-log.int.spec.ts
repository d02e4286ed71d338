import { randomUUID } from 'node:crypto';
import {
  AUDIT_EVENT_TYPES,
  type AuditEntry,
  type CreatedApiKeyResponse,
  type DistributeResponse,
  type Ticket,
  type User,
  type UserStateAt,
} from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { auditBatches } from './read-models/audit.queries.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
import { linkWalletWith, passes, simControl, startSim } from '../../testing/wallet-fixture.js';

const BROWSER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const q = (params: Record<string, string | string[]>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
  return `?${search.toString()}`;
};

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
  let single: DistributeResponse;
  let recalledId: string;

  const audits = async (query = '', id = userId) => {
    const res = await admin.request('GET', `/v1/admin/users/${id}/audits${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.audits as AuditEntry[];
  };
  const claim = (code: string) =>
    fetch(`${stack.baseUrl}/v1/links/${code}/claim`, { method: 'POST', headers: { 'user-agent': BROWSER } });
  const codeOf = (link: string) => link.split('/l/')[1]!;

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    stack = await startTestStack({
      env: {
        WALLET_PROVIDER_URL: url,
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        WALLET_SYNC_EVERY_MS: '600000',
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      },
    });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, {
      credits: 100,
      reason: 'Credits for the tour',
      expected_balance: 50,
    });
    ({ tickets } = await linkWalletWith(user, simControl(url), 'audit@wallet.test', passes('audit', 6)));
    await subscriptionsCaughtUp(stack.app);
    await sleep(20);
    moments.beforeLinks = new Date().toISOString();
    await sleep(20);
    // Three links in one request (bulk), a refusal, a single labelled link, claims, a recall and a refused recall.
    made = (await user.request('POST', '/v1/tickets/distribute', { ticket_ids: tickets.slice(0, 3).map((t) => t.id) }))
      .body as unknown as DistributeResponse;
    await user.request(
      'POST',
      '/v1/tickets/distribute',
      { ticket_ids: [tickets[0]!.id] },
      { headers: { 'x-forwarded-for': '10.9.8.7' } },
    );
    single = (
      await user.request('POST', '/v1/tickets/distribute', {
        ticket_ids: [tickets[3]!.id],
        max_clicks: 5,
        label: 'for Sam',
      })
    ).body as unknown as DistributeResponse;
    for (let i = 0; i < 2; i++) await claim(codeOf(made.distributions[0]!.link));
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

  it('lists every link attempt newest first, as docs/reference.md#audit-entry has them, with IP and the bulk flag', async () => {
    const all = await audits('?kind=links');
    expect(all.map((a) => [a.event_type, a.event_data.status])).toEqual([
      ['TICKET_RECALLED', 'FAILED'],
      ['TICKET_RECALLED', 'SUCCESS'],
      ['LINK_CLAIMED', 'SUCCESS'],
      ['DISTRIBUTE', 'SUCCESS'],
      ['DISTRIBUTE', 'FAILED'],
      ['DISTRIBUTE', 'SUCCESS'],
      ['DISTRIBUTE', 'SUCCESS'],
      ['DISTRIBUTE', 'SUCCESS'],
    ]);
    expect(all.every((a) => a.kind === 'links')).toBe(true);
    const times = all.map((a) => a.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.filter((a) => a.metadata.bulk_action)).toHaveLength(3);
    const made = all.filter((a) => a.event_type !== 'LINK_CLAIMED');
    expect(made.every((a) => a.metadata.ip_address === '127.0.0.1')).toBe(true);
    expect(all[4]!.event_data).toMatchObject({ code: 'ALREADY_DISTRIBUTED', reason: 'Ticket is already distributed' });
  });

  it('lists the entries of one instant in the order they happened, not by their ids', async () => {
    // A bulk distribution's links are appended in one transaction: one instant, in the order of the request.
    const bulk = (await audits('?event_type=DISTRIBUTE&status=SUCCESS')).filter((a) => a.metadata.bulk_action);
    expect(new Set(bulk.map((a) => a.created_at)).size).toBe(1);
    expect(bulk.map((a) => a.event_data.ticket_id)).toEqual(made.distributions.map((d) => d.ticket_id).reverse());
    // Newest first: its links after what paid for them, whatever the two's times to the millisecond.
    const all = await audits();
    const paid = all.findIndex((a) => a.event_type === 'CREDITS_SPENT' && a.event_data.links === 3);
    expect(all.findIndex((a) => a.id === bulk[2]!.id)).toBeLessThan(paid);
    // The same order two at a time (the CSV export's keyset, whose pages part the instant).
    const pages: AuditEntry[][] = [];
    const filters = {
      kind: [],
      event_type: [],
      status: [],
      ticket_id: undefined,
      distribution_id: undefined,
      ip_address: undefined,
    };
    for await (const page of auditBatches(database.db, userId, filters, 2, 1000)) pages.push(page);
    expect(pages.flat().map((a) => a.id)).toEqual(all.map((a) => a.id));
  });

  it('names each row as a person reads it: the ticket’s title and seat, the link’s label; the ids stay', async () => {
    const all = await audits('?kind=links');
    const labelled = all.find((a) => a.event_data.distribution_id === single.distributions[0]!.distribution_id)!;
    expect(labelled.event_data.ticket_id).toBe(tickets[3]!.id);
    expect(labelled.names).toEqual({
      ticket: tickets[3]!.title,
      seat: tickets[3]!.seat.seat_info_combined,
      link: 'for Sam',
      by: null,
      api_key: null,
      subject: null,
    });
    const recall = all.find((a) => a.event_type === 'TICKET_RECALLED' && a.event_data.status === 'SUCCESS')!;
    expect(recall.names).toMatchObject({ ticket: tickets[1]!.title, link: null });
  });

  it('holds a link’s claims as one row per hour, with how many, the first and the last', async () => {
    const [claims] = await audits('?event_type=LINK_CLAIMED');
    expect(claims).toMatchObject({
      kind: 'links',
      event_data: {
        status: 'SUCCESS',
        ticket_id: tickets[0]!.id,
        distribution_id: made.distributions[0]!.distribution_id,
        claims: 2,
      },
      metadata: { ip_address: null, bulk_action: false },
      names: { ticket: tickets[0]!.title },
    });
    expect(Date.parse(claims!.event_data.last_claim_at as string)).toBeGreaterThanOrEqual(
      Date.parse(claims!.created_at),
    );
  });

  it('holds a link’s first opens as one row per hour: devices, not page loads, and never a bot', async () => {
    // The first link (the second was recalled above: a withdrawn link counts no opens).
    const link = made.distributions[0]!;
    const code = codeOf(link.link);
    const open = (deviceId: string, userAgent = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)') =>
      fetch(`${stack.baseUrl}/v1/links/${code}/opens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': userAgent },
        body: JSON.stringify({ device_id: deviceId }),
      });
    // Two devices, one of them five times at once; a link preview bot.
    const device = `device-${Date.now()}`;
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => open(`${device}-a`)),
      open(`${device}-b`),
      open(`${device}-c`, 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'),
    ]);
    expect(answers.map((a) => a.status).every((s) => s < 300)).toBe(true);
    await subscriptionsCaughtUp(stack.app);
    const rows = (await audits('?event_type=LINK_OPENED')).filter(
      (a) => a.event_data.distribution_id === link.distribution_id,
    );
    expect(rows.reduce((sum, r) => sum + (r.event_data.opens as number), 0)).toBe(2);
    expect(rows[0]).toMatchObject({ kind: 'links', event_type: 'LINK_OPENED', names: { ticket: tickets[0]!.title } });
    expect(Date.parse(rows[0]!.event_data.last_open_at as string)).toBeGreaterThanOrEqual(
      Date.parse(rows[0]!.created_at),
    );
  });

  it('holds a storm of claims on one link readable: a line per hour, the count exact', async () => {
    const link = made.distributions[2]!;
    const answers = await Promise.all(Array.from({ length: 150 }, () => claim(codeOf(link.link))));
    expect(answers.every((a) => a.status < 400)).toBe(true);
    await subscriptionsCaughtUp(stack.app);
    const rows = (await audits('?event_type=LINK_CLAIMED')).filter(
      (a) => a.event_data.distribution_id === link.distribution_id,
    );
    // One hour, or two when the storm crossed the hour.
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(2);
    expect(rows.reduce((sum, r) => sum + (r.event_data.claims as number), 0)).toBe(150);
  });

  it('holds the money: credits set (by whom, from what to what, why) and credits spent on links', async () => {
    const money = await audits('?kind=money');
    expect(money.every((a) => a.kind === 'money')).toBe(true);
    expect(money.map((a) => a.event_type)).toEqual(['CREDITS_SPENT', 'CREDITS_SPENT', 'CREDITS_SET', 'CREDITS_SET']);
    const [, , set, seeded] = money;
    expect(set).toMatchObject({
      event_data: { status: 'SUCCESS', from: 50, to: 100, reason: 'Credits for the tour' },
      names: { by: 'admin@seatlink.test' },
      metadata: { ip_address: '127.0.0.1' },
    });
    expect(seeded).toMatchObject({ event_data: { from: 0, to: 50, reason: 'Demo credits' }, names: { by: null } });
    expect(money[1]!.event_data).toMatchObject({ amount: 15, links: 3, balance_after: 85 });
    expect(money[0]!.event_data).toMatchObject({ amount: 5, links: 1, balance_after: 80 });
  });

  it('holds access and what acts for the user: new devices, sessions, bans, resets, API keys and webhooks', async () => {
    const someone = await createVerifiedUser(stack.app);
    const first = new ApiClient(stack.baseUrl);
    expect(
      (
        await first.request(
          'POST',
          '/v1/auth',
          { email: someone.email, password: someone.password, token: null },
          {
            headers: { 'user-agent': BROWSER },
          },
        )
      ).status,
    ).toBe(200);
    const phone = new ApiClient(stack.baseUrl);
    await phone.request(
      'POST',
      '/v1/auth',
      { email: someone.email, password: someone.password, token: null },
      {
        headers: { 'user-agent': PHONE },
      },
    );
    // The phone signs the first browser out.
    const sessions = (await phone.request('GET', '/v1/me/sessions')).body.sessions as Array<{
      id: string;
      current: boolean;
    }>;
    const other = sessions.find((s) => !s.current)!;
    expect((await phone.request('DELETE', `/v1/me/sessions/${other.id}`)).status).toBe(200);
    // An API key made and revoked, a webhook added, changed, its secret rolled, disabled and deleted.
    const key = (await phone.request('POST', '/v1/me/api-keys', { name: 'Box office', scopes: ['links:write'] }))
      .body as unknown as CreatedApiKeyResponse;
    const hook = await phone.request('POST', '/v1/me/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['link.claimed'],
    });
    expect(hook.status).toBe(201);
    const hookId = (hook.body.webhook as { id: string }).id;
    await sleep(20);
    const whileKeyed = new Date().toISOString();
    await sleep(20);
    expect((await phone.request('DELETE', `/v1/me/api-keys/${key.api_key.id}`)).status).toBe(200);
    expect((await phone.request('PATCH', `/v1/me/webhooks/${hookId}`, { events: ['link.expired'] })).status).toBe(200);
    expect((await phone.request('POST', `/v1/me/webhooks/${hookId}/secret`)).status).toBe(200);
    expect((await phone.request('PATCH', `/v1/me/webhooks/${hookId}`, { enabled: false })).status).toBe(200);
    expect((await phone.request('DELETE', `/v1/me/webhooks/${hookId}`)).status).toBe(200);
    // An admin asks for a password reset, bans and unbans.
    expect((await admin.request('POST', `/v1/admin/users/${someone.id}/reset-password`)).status).toBe(200);
    expect((await admin.request('POST', `/v1/admin/users/${someone.id}/toggle-ban`)).status).toBe(200);
    expect((await admin.request('POST', `/v1/admin/users/${someone.id}/toggle-ban`)).status).toBe(200);
    await subscriptionsCaughtUp(stack.app);

    const access = (await audits('?kind=access', someone.id)).reverse();
    expect(access.map((a) => a.event_type)).toEqual([
      'NEW_DEVICE_SIGN_IN',
      'SESSIONS_ENDED',
      'API_KEY_CREATED',
      'WEBHOOK_ADDED',
      'API_KEY_REVOKED',
      'WEBHOOK_CHANGED',
      'WEBHOOK_CHANGED',
      'WEBHOOK_DISABLED',
      'WEBHOOK_DELETED',
      'PASSWORD_RESET_REQUESTED',
      'USER_BANNED',
      'USER_UNBANNED',
    ]);
    const byType = (type: string, nth = 0) => access.filter((a) => a.event_type === type)[nth]!;
    expect(byType('NEW_DEVICE_SIGN_IN').event_data.device).toMatch(/Android/);
    expect(byType('NEW_DEVICE_SIGN_IN').metadata.ip_address).toBe('127.0.0.1');
    expect(byType('SESSIONS_ENDED').event_data).toMatchObject({ sessions: 1 });
    expect(byType('API_KEY_CREATED')).toMatchObject({
      event_data: { key_id: key.api_key.id, name: 'Box office', scopes: ['links:write'] },
      names: { subject: 'Box office' },
    });
    expect(byType('API_KEY_REVOKED').names.subject).toBe('Box office');
    expect(byType('WEBHOOK_CHANGED', 1).event_data).toMatchObject({ secret_rolled: true });
    expect(byType('WEBHOOK_DISABLED')).toMatchObject({
      event_data: { by: 'owner', endpoint_id: hookId },
      names: { subject: 'http://127.0.0.1:9/hook' },
    });
    for (const type of ['PASSWORD_RESET_REQUESTED', 'USER_BANNED', 'USER_UNBANNED'])
      expect(byType(type).names.by, type).toBe('admin@seatlink.test');
    // Nothing in the log holds a secret: not the key, not a hash of it.
    const text = JSON.stringify(access);
    expect(text).not.toContain(key.key);
    // Several kinds at once.
    expect((await audits('?kind=access&kind=money', someone.id)).length).toBe(access.length);

    // The history replays what acted for the user then, and their standing.
    const at = async (moment: string) =>
      (await admin.request('GET', `/v1/admin/users/${someone.id}/history?at=${encodeURIComponent(moment)}`))
        .body as unknown as UserStateAt;
    const then = (await at(whileKeyed)).access;
    expect(then).toMatchObject({ banned: false, authenticator: false, passkeys: [] });
    expect(then.api_keys.map((k) => [k.key_id, k.name, k.scopes])).toEqual([
      [key.api_key.id, 'Box office', ['links:write']],
    ]);
    expect(then.webhooks).toEqual([
      { endpoint_id: hookId, url: 'http://127.0.0.1:9/hook', events: ['link.claimed'], enabled: true },
    ]);
    expect((await at(new Date().toISOString())).access).toMatchObject({ banned: false, api_keys: [], webhooks: [] });
    const banned = access.find((a) => a.event_type === 'USER_BANNED')!;
    expect((await at(banned.created_at)).access.banned).toBe(true);
  });

  it('filters by type, status (repeated), kind, id and IP prefixes, and dates', async () => {
    expect(await audits('?event_type=TICKET_RECALLED')).toHaveLength(2);
    expect(await audits('?status=FAILED')).toHaveLength(2);
    expect(await audits('?kind=links&status=FAILED&status=SUCCESS')).toHaveLength(10);
    expect(await audits('?event_type=DISTRIBUTE&event_type=TICKET_RECALLED&status=SUCCESS')).toHaveLength(5);
    const ticketId = tickets[0]!.id;
    expect((await audits(`?ticket_id=${ticketId.slice(0, 8)}`)).every((a) => a.event_data.ticket_id === ticketId)).toBe(
      true,
    );
    expect(await audits(`?distribution_id=${recalledId}`)).toHaveLength(3);
    expect(await audits('?kind=links&ip_address=127.0')).toHaveLength(7);
    expect(await audits('?ip_address=10.')).toHaveLength(0);
    // LIKE wildcards are taken literally.
    expect(await audits('?ticket_id=%25')).toHaveLength(0);
    expect(await audits('?ticket_id=_')).toHaveLength(0);
    expect(await audits(`?kind=links&start_date=${moments.afterLinks}`)).toHaveLength(4);
    expect(await audits(`?kind=links&end_date=${moments.beforeLinks}`)).toHaveLength(0);
    const during = await audits(`?kind=links&start_date=${moments.beforeLinks}&end_date=${moments.afterLinks}`);
    expect(during).toHaveLength(6);
    // Every type at once is a filter too.
    expect(await audits(q({ event_type: Object.keys(AUDIT_EVENT_TYPES) }))).toEqual(await audits());
  });

  it('pages with limit and offset', async () => {
    const all = await audits();
    expect((await audits('?limit=3')).map((a) => a.id)).toEqual(all.slice(0, 3).map((a) => a.id));
    expect((await audits('?limit=3&offset=3')).map((a) => a.id)).toEqual(all.slice(3, 6).map((a) => a.id));
    expect(await audits(`?limit=3&offset=${all.length}`)).toEqual([]);
  });

  it.each([
    ['?status=MAYBE', 'status'],
    ['?event_type=DELETE', 'event_type'],
    ['?kind=everything', 'kind'],
    [q({ kind: ['money', 'money', 'money', 'money'] }), 'kind may be given at most 3 times'],
    [
      q({ event_type: Array.from({ length: Object.keys(AUDIT_EVENT_TYPES).length + 1 }, () => 'DISTRIBUTE') }),
      `event_type may be given at most ${Object.keys(AUDIT_EVENT_TYPES).length} times`,
    ],
    ['?limit=0', 'limit must be at least 1'],
    ['?limit=501', 'limit must be at most 500'],
    ['?limit=ten', 'limit must be a whole number'],
    ['?offset=-1', 'offset must be at least 0'],
    ['?start_date=yesterday', 'start_date must be a date and time'],
    ['?start_date=2026-02-01T00:00:00Z&end_date=2026-01-01T00:00:00Z', 'start_date must not be after end_date'],
    ['?start_date=%2B275760-09-13T00:00:00Z', 'start_date'],
    ['?end_date=0000-01-01T00:00:00Z', 'end_date'],
    ['?end_date=10000-01-01T00:00:00Z', 'end_date'],
    ['?ticket_id=%00', 'ticket_id contains characters that are not allowed'],
    ['?distribution_id=ab%00cd', 'distribution_id contains characters that are not allowed'],
    ['?ip_address=%E2%80%AE1.2', 'ip_address contains characters that are not allowed'],
    ['?ticket_id=%E2%81%A6x%E2%81%A9', 'ticket_id contains characters that are not allowed'],
    [`?ticket_id=${'a'.repeat(101)}`, 'ticket_id is too long'],
    [`?ip_address=${'9'.repeat(5_000)}`, 'ip_address is too long'],
  ])('answers 400 for %s', async (query, message) => {
    const res = await admin.request('GET', `/v1/admin/users/${userId}/audits${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    const csv = await admin.request('GET', `/v1/admin/users/${userId}/audits.csv${query}`);
    expect(csv.status).toBe(400);
  });

  it('is for admins only, and a user id must be a UUID', async () => {
    expect((await user.request('GET', `/v1/admin/users/${userId}/audits`)).status).toBe(403);
    expect((await new ApiClient(stack.baseUrl).request('GET', `/v1/admin/users/${userId}/audits`)).status).toBe(401);
    expect((await admin.request('GET', '/v1/admin/users/nope/audits')).status).toBe(400);
    expect(
      await (async () => (await admin.request('GET', `/v1/admin/users/${randomUUID()}/audits`)).body.audits)(),
    ).toEqual([]);
  });

  it('exports the filtered view as CSV (every page), ids and words both, a spreadsheet formula made harmless', async () => {
    await database.query(
      `insert into audit_entries (id, user_id, created_at, kind, event_type, status, ticket_id, distribution_id,
                                  ip_address, bulk_action, event_data)
       values ($1, $2, now() - interval '1 day', 'links', 'DISTRIBUTE', 'FAILED', null, null, '=HYPERLINK("http://x")',
               false, '{}')`,
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
    expect(lines[0]).toBe(
      'Event Time,Status,Event Type,Ticket ID,Distribution ID,IP Address,Bulk Action,Details,Kind,Summary',
    );
    // Every FAILED entry, not just the page of one.
    expect(lines).toHaveLength(1 + 3);
    expect(lines.some((l) => l.includes(`"'=HYPERLINK(""http://x"")"`))).toBe(true);
    expect(lines.slice(1).every((l) => l.includes(',FAILED,'))).toBe(true);
    // The refused distribution: its ticket's id, and in words its title and why.
    const refused = lines.find((l) => l.includes(`,${tickets[0]!.id},`))!;
    expect(refused).toContain(
      `,Links,"${tickets[0]!.title} (${tickets[0]!.seat.seat_info_combined}) · Ticket is already distributed"`,
    );

    const money = await fetch(
      `${stack.baseUrl}/v1/admin/users/${userId}/audits.csv?kind=money&event_type=CREDITS_SET`,
      {
        headers: { cookie: admin.sessionCookie },
      },
    );
    const set = (await money.text()).split(/\r?\n/).find((l) => l.includes('Credits for the tour'))!;
    expect(set).toContain(',Credits Set,');
    expect(set).toContain('50 → 100 · by admin@seatlink.test · “Credits for the tour”');
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
    // Each set of the credits with who set it and why (the seed's by no one).
    expect(before.credit_changes.filter((c) => c.kind === 'set')).toEqual([
      expect.objectContaining({ change: 50, balance_after: 50, reason: 'Demo credits', by: null }),
      expect.objectContaining({
        change: 50,
        balance_after: 100,
        reason: 'Credits for the tour',
        by: 'admin@seatlink.test',
      }),
    ]);
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
