import { randomUUID } from 'node:crypto';
import type { AppNotification, NotificationsResponse } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import { type Database, queryRows } from '../../infra/db/database.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { topupBody } from '../../testing/topup.js';
import { claimLink, makeLink, newLinkHolder, signedInSocket } from '../../testing/link-holder.js';
import { simControl, startSim } from '../../testing/wallet-fixture.js';
import { WarnExpiringLinksJob } from '../distribution/warn-expiring-links.job.js';

const HOUR = 60 * 60 * 1000;

describe('the notification centre: claims, limits, expiries, accounts and payments, read and paged', () => {
  let sim: WalletSimApp;
  let control: ReturnType<typeof simControl>;
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;

  const holder = (tickets = 4) => newLinkHolder(stack, admin, control, { tickets, credits: 500 });
  const claim = (code: string) => claimLink(stack.baseUrl, code);
  const list = async (client: ApiClient, query = '') => {
    const res = await client.request('GET', `/v1/notifications${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as unknown as NotificationsResponse;
  };
  const settled = async () => {
    // Clicks are written in batches; the projections then run.
    await new Promise((r) => setTimeout(r, 150));
    await subscriptionsCaughtUp(stack.app);
  };
  const read = (client: ApiClient, body: unknown) => client.request('POST', '/v1/notifications/read', body);

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    control = simControl(url);
    stack = await startTestStack({
      env: { WALLET_PROVIDER_URL: url, WALLET_SYNC_FOLLOW_UPS_MS: '', WALLET_SYNC_EVERY_MS: '1500' },
    });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('gathers a link’s claims in one notification while unread, tells of its limit, and pushes the unread count', async () => {
    const { client, tickets } = await holder();
    const socket = await signedInSocket(stack.baseUrl, client.sessionCookie);
    try {
      const pushed: number[] = [];
      socket.on('notifications.updated', (p: { unread: number }) => pushed.push(p.unread));

      const { code, distributionId } = await makeLink(client, tickets[0]!, { max_clicks: 3, label: 'for Sam' });
      expect((await list(client)).notifications).toEqual([]);
      await Promise.all([claim(code), claim(code)]);
      await settled();
      let page = await list(client);
      expect(page.unread).toBe(1);
      expect(page.notifications).toHaveLength(1);
      expect(page.notifications[0]).toMatchObject({
        kind: 'link_claimed',
        count: 2,
        read: false,
        ticket_id: tickets[0]!.id,
        distribution_id: distributionId,
        subject: tickets[0]!.title,
        label: 'for Sam',
      });
      await expect.poll(() => pushed.at(-1), { timeout: 5000 }).toBe(1);

      // The third claim fills the limit: the claims grow to 3, and the limit is told of on its own.
      expect((await claim(code)).status).toBe(200);
      expect((await claim(code)).status).toBe(410);
      await settled();
      page = await list(client);
      expect(page.unread).toBe(2);
      expect(page.notifications.map((n) => [n.kind, n.count])).toEqual(
        expect.arrayContaining([
          ['link_claimed', 3],
          ['link_limit_reached', 1],
        ]),
      );
      expect(page.notifications.find((n) => n.kind === 'link_limit_reached')!.max_clicks).toBe(3);
      await expect.poll(() => pushed.at(-1), { timeout: 5000 }).toBe(2);
    } finally {
      socket.disconnect();
    }
  });

  it('marks read by id or all at once; a claim after a read opens a new notification', async () => {
    const { client, tickets } = await holder();
    const { code } = await makeLink(client, tickets[0]!, { max_clicks: null });
    await claim(code);
    await settled();
    const [first] = (await list(client)).notifications;
    const res = await read(client, { ids: [first!.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Notifications marked as read', unread: 0 });
    await claim(code);
    await claim(code);
    await settled();
    const page = await list(client);
    expect(page.notifications.map((n) => [n.count, n.read])).toEqual([
      [2, false],
      [1, true],
    ]);
    expect(page.unread).toBe(1);
    // Ids of another user's notifications, or none at all, change nothing of theirs or this user's.
    const other = await holder(1);
    expect((await read(other.client, { ids: [page.notifications[0]!.id, randomUUID()] })).status).toBe(200);
    expect((await list(client)).unread).toBe(1);
    // A request retried with its Idempotency-Key (its answer was lost) marks once.
    const key = randomUUID();
    const readAll = () =>
      client.request('POST', '/v1/notifications/read', { all: true }, { headers: { 'Idempotency-Key': key } });
    expect((await readAll()).status).toBe(200);
    expect((await readAll()).status).toBe(200);
    const userId = (await client.request('GET', '/v1/me')).body.id as string;
    const [marks] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where type = 'NotificationsRead' and data->>'userId' = $1`,
      [userId],
    );
    // The first read by id, and the retried one.
    expect(marks!.n).toBe(2);
    // Twenty at once, all of them: each answers, none fails, nothing is left unread.
    const answers = await Promise.all(Array.from({ length: 20 }, () => read(client, { all: true })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect((await list(client)).unread).toBe(0);
  });

  it('pages newest first with before, each notification once', async () => {
    const { client, tickets } = await holder();
    const { code } = await makeLink(client, tickets[0]!, { max_clicks: null });
    for (let i = 0; i < 5; i++) {
      await claim(code);
      await settled();
      expect((await read(client, { all: true })).status).toBe(200);
    }
    const all = await list(client, '?limit=100');
    expect(all.notifications).toHaveLength(5);
    const seen: AppNotification[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const page = await list(client, `?limit=2${before ? `&before=${before}` : ''}`);
      seen.push(...page.notifications);
      before = page.next_before;
      pages++;
    } while (before);
    expect(pages).toBe(3);
    expect(seen.map((n) => n.id)).toEqual(all.notifications.map((n) => n.id));
    const times = seen.map((n) => n.updated_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('tells of a link that expires within a day once per expiry, however often and at once the job runs', async () => {
    const { client, tickets } = await holder();
    const job = stack.app.get(WarnExpiringLinksJob);
    const soon = new Date(Date.now() + 2 * HOUR).toISOString();
    const { distributionId } = await makeLink(client, tickets[0]!, { expiry_date: soon });
    const { distributionId: later } = await makeLink(client, tickets[1]!, {
      expiry_date: new Date(Date.now() + 30 * HOUR).toISOString(),
    });
    await settled();
    const runs = await Promise.all(Array.from({ length: 5 }, () => job.warnDue(new Date())));
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    await settled();
    expect(await job.warnDue(new Date())).toBe(0);
    const [events] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where type = 'LinkExpiryNear' and data->>'distributionId' = $1`,
      [distributionId],
    );
    expect(events!.n).toBe(1);
    let page = await list(client);
    expect(page.notifications).toHaveLength(1);
    expect(page.notifications[0]).toMatchObject({ kind: 'link_expiring', distribution_id: distributionId });
    expect(Date.parse(page.notifications[0]!.expires_at!)).toBe(Date.parse(soon));
    expect(page.notifications.some((n) => n.distribution_id === later)).toBe(false);

    // The owner moves the expiry: the new one is told of in its turn.
    const moved = new Date(Date.now() + 3 * HOUR).toISOString();
    expect((await client.request('PATCH', `/v1/distributions/${distributionId}`, { expiry_date: moved })).status).toBe(
      200,
    );
    await settled();
    expect(await job.warnDue(new Date())).toBe(1);
    await settled();
    page = await list(client);
    expect(page.notifications.filter((n) => n.kind === 'link_expiring')).toHaveLength(2);
    // A recalled link is not told of.
    const { distributionId: recalled } = await makeLink(client, tickets[2]!, {
      expiry_date: new Date(Date.now() + 2 * HOUR).toISOString(),
    });
    expect((await client.request('POST', `/v1/distributions/${recalled}/recall`)).status).toBe(200);
    await settled();
    expect(await job.warnDue(new Date())).toBe(0);
  });

  it('tells of credits bought by card', async () => {
    const { client } = await holder(1);
    const res = await client.request('POST', '/v1/topup', topupBody(12), {
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await settled();
    const [credits] = (await list(client)).notifications.filter((n) => n.kind === 'credits_added');
    expect(credits).toMatchObject({ credits: 12, amount_pence: 1200, read: false });
  });

  it('tells of a wallet account that needs a new sign-in, once however often its syncs fail, and clears it on re-auth', async () => {
    const { client, account, walletEmail: email } = await holder(1);
    await control('POST', `/wallets/${encodeURIComponent(email)}/password`, { password: 'Changed123!' });
    await expect
      .poll(async () => (await list(client)).notifications.filter((n) => n.kind === 'account_reauth'), {
        timeout: 20_000,
      })
      .toEqual([expect.objectContaining({ account_id: account.id, subject: email, read: false })]);
    const reauth = await client.request('POST', `/v1/accounts/${account.id}/reauth`, {
      email,
      password: 'Changed123!',
    });
    expect([200, 202]).toContain(reauth.status);
    await settled();
    const after = (await list(client)).notifications.filter((n) => n.kind === 'account_reauth');
    expect(after).toHaveLength(1);
    expect(after[0]!.read).toBe(true);
  });

  it('refuses bad input with a 400 that says why, and strangers with 401', async () => {
    const { client } = await holder(1);
    const nul = encodeURIComponent('a\u0000b');
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=abc',
      '?before=%20',
      `?before=${nul}`,
      `?before=${'A'.repeat(5000)}`,
      `?before=${Buffer.from('2026-01-01T00:00:00.000Z|nope').toString('base64url')}`,
      `?before=${Buffer.from('+275760-09-13T00:00:00.000Z|' + randomUUID()).toString('base64url')}`,
      `?before=${Buffer.from('0000-01-01T00:00:00.000Z|00000000-0000-0000-0000-000000000000').toString('base64url')}`,
      '?unknown=1',
    ]) {
      const res = await client.request('GET', `/v1/notifications${query}`);
      expect(res.status, query).toBe(400);
      expect(typeof res.body.message, query).toBe('string');
    }
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i++) deep = { ids: [deep] };
    for (const body of [
      {},
      { ids: [] },
      { ids: ['not-a-uuid'] },
      { ids: Array.from({ length: 501 }, () => randomUUID()) },
      { all: false },
      { all: true, ids: [randomUUID()] },
      { ids: [randomUUID()], extra: 1 },
      { ids: 'x\u0000' },
      deep,
      null,
      [],
    ]) {
      const res = await read(client, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    const stranger = new ApiClient(stack.baseUrl);
    expect((await stranger.request('GET', '/v1/notifications')).status).toBe(401);
    expect((await stranger.request('POST', '/v1/notifications/read', { all: true })).status).toBe(401);
    const [written] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where stream_id = $1`,
      [`notifications-${(await client.request('GET', '/v1/me')).body.id as string}`],
    );
    expect(written!.n).toBe(0);
  });

  it('rebuilds the same notifications from the events', async () => {
    await subscriptionsCaughtUp(stack.app);
    const dump = () => queryRows(database.db, sql`select to_jsonb(n) as row from notifications n order by id`);
    const live = await dump();
    expect(live.length).toBeGreaterThan(5);
    await stack.app.get(SubscriptionOperations).reset(['notifications']);
    await subscriptionsCaughtUp(stack.app);
    expect(await dump()).toEqual(live);
  });
});
