import { randomUUID } from 'node:crypto';
import {
  LINK_MESSAGES,
  type AppNotification,
  type DistributeResponse,
  type LinkClaimant,
  type Ticket,
  type User,
} from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import { queryRows, type Database } from '../../infra/db/database.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { signedInSocket } from '../../testing/link-holder.js';
import { linkWalletWith, passes, simControl, startSim } from '../../testing/wallet-fixture.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

describe('who claimed: a recipient may give their name, and the owner sees it with the device and time', () => {
  let sim: WalletSimApp;
  let stack: TestStack;
  let database: Database;
  let user: ApiClient;
  let tickets: Ticket[];
  let next = 0;

  const claim = (code: string, body: unknown, userAgent = IPHONE, key?: string) =>
    fetch(`${stack.baseUrl}/v1/links/${code}/claim`, {
      method: 'POST',
      headers: {
        'user-agent': userAgent,
        'content-type': 'application/json',
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: JSON.stringify(body),
    });
  const makeLink = async (maxClicks: number | null = 5) => {
    const ticket = tickets[next++]!;
    const res = await user.request('POST', '/v1/tickets/distribute', {
      ticket_ids: [ticket.id],
      max_clicks: maxClicks,
    });
    expect(res.status).toBe(200);
    const made = (res.body as unknown as DistributeResponse).distributions[0]!;
    return { code: made.link.split('/l/')[1]!, distributionId: made.distribution_id, ticket };
  };
  const claimedBy = async (ticketId: string): Promise<LinkClaimant | null> => {
    const res = await user.request('GET', '/v1/tickets');
    expect(res.status).toBe(200);
    const ticket = (res.body.tickets as Ticket[]).find((t) => t.id === ticketId)!;
    return ticket.distribution!.claimed_by;
  };
  const clickEvents = (distributionId: string) =>
    queryRows<{ n: number; name: string | null; device: string | null }>(
      database.db,
      sql`select (data->>'n')::int as n, data->>'name' as name, data->>'device' as device from events
          where stream_id = ${`link-clicks-${distributionId}`} order by 1`,
    );

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    stack = await startTestStack({
      env: { WALLET_PROVIDER_URL: url, WALLET_SYNC_FOLLOW_UPS_MS: '', WALLET_SYNC_EVERY_MS: '600000' },
    });
    database = stack.app.get<Database>(DATABASE);
    const admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    const userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 10_000, reason: 'Test' });
    ({ tickets } = await linkWalletWith(user, simControl(url), 'claimants@wallet.test', passes('claimants', 20)));
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('records the name and device with the click, and the owner sees them in the list, live, in the bell and the export', async () => {
    const { code, distributionId, ticket } = await makeLink();
    const socket = await signedInSocket(stack.baseUrl, user.sessionCookie);
    try {
      const pushed: Array<LinkClaimant | undefined> = [];
      socket.on(
        'distributions.clicked',
        (p: { links: Array<{ distribution_id: string; claimed_by?: LinkClaimant }> }) => {
          for (const link of p.links) if (link.distribution_id === distributionId) pushed.push(link.claimed_by);
        },
      );
      const res = await claim(code, { name: '  Sam  ' });
      expect(res.status).toBe(200);
      await expect.poll(() => pushed.at(-1)?.name, { timeout: 5000 }).toBe('Sam');
      expect(pushed.at(-1)).toMatchObject({ name: 'Sam', device: 'iPhone' });
    } finally {
      socket.disconnect();
    }
    // The answer is given after the click's event is in the log, with who made it.
    expect(await clickEvents(distributionId)).toEqual([{ n: 1, name: 'Sam', device: 'iPhone' }]);
    const first = await claimedBy(ticket.id);
    expect(first).toMatchObject({ name: 'Sam', device: 'iPhone' });
    expect(Date.now() - Date.parse(first!.at)).toBeLessThan(60_000);

    // A second claim without a name, from a PC: the last claim is the one shown.
    expect((await claim(code, {}, WINDOWS)).status).toBe(200);
    expect(await claimedBy(ticket.id)).toMatchObject({ name: null, device: 'Windows PC' });

    await subscriptionsCaughtUp(stack.app);
    const notes = await user.request('GET', '/v1/notifications');
    const note = (notes.body.notifications as AppNotification[]).find(
      (n) => n.kind === 'link_claimed' && n.distribution_id === distributionId,
    );
    expect(note).toMatchObject({ count: 2, claimed_by: { name: null, device: 'Windows PC' } });

    const csv = await fetch(`${stack.baseUrl}/v1/links/export.csv`, { headers: { cookie: user.sessionCookie } });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).split(/\r?\n/);
    expect(lines[0]).toContain('Last Click,Claimed By,Claimed On,Recalled');
    // The last claim: no name given, from a PC (its click time, then the empty name, then the device).
    expect(lines.find((l) => l.includes(distributionId))).toMatch(/Z,,Windows PC,,/);
  });

  it('refuses a name that is not plain text of at most 60 characters (400), counting nothing', async () => {
    const { code, distributionId } = await makeLink();
    for (const name of ['Sam\u0000', 'Sam\u202Egnp.exe', 'x'.repeat(61), 42, { first: 'Sam' }, ['Sam'], true]) {
      const res = await claim(code, { name });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'NAME_FORMAT', message: LINK_MESSAGES.nameFormat });
    }
    expect(await clickEvents(distributionId)).toEqual([]);
    // Sixty characters (an emoji is one), and blank is no name.
    const sixty = '🎟'.repeat(60);
    expect((await claim(code, { name: sixty })).status).toBe(200);
    expect((await claim(code, { name: '   ' })).status).toBe(200);
    expect((await claim(code, { name: null })).status).toBe(200);
    expect((await clickEvents(distributionId)).map((e) => e.name)).toEqual([sixty, null, null]);
  });

  it('names the one claimant a limit of 1 lets in, whoever else claims at once; a retry keeps the first name', async () => {
    const { code, distributionId, ticket } = await makeLink(1);
    const names = Array.from({ length: 20 }, (_, i) => `Guest ${i}`);
    const keys = names.map(() => randomUUID());
    const answers = await Promise.all(names.map((name, i) => claim(code, { name }, IPHONE, keys[i])));
    const winners = names.filter((_, i) => answers[i]!.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.status === 410)).toHaveLength(19);
    expect(await clickEvents(distributionId)).toEqual([{ n: 1, name: winners[0], device: 'iPhone' }]);
    expect(await claimedBy(ticket.id)).toMatchObject({ name: winners[0], device: 'iPhone' });
    // The winner's press sent again (same key) under another name: answered with its click, nothing renamed.
    const again = await claim(code, { name: 'Someone else' }, IPHONE, keys[names.indexOf(winners[0]!)]);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(await claimedBy(ticket.id)).toMatchObject({ name: winners[0] });
  });

  it('gives the same claimants after a rebuild of the links read model from the events', async () => {
    const { code, ticket } = await makeLink(null);
    for (const name of ['Ann', 'Bo', 'Cy']) expect((await claim(code, { name })).status).toBe(200);
    await subscriptionsCaughtUp(stack.app);
    const dump = () =>
      queryRows(
        database.db,
        sql`select distribution_id, clicks, last_click_at, last_claim_name, last_claim_device from links
            order by distribution_id`,
      );
    const live = await dump();
    await stack.app.get(SubscriptionOperations).reset(['links']);
    await subscriptionsCaughtUp(stack.app);
    expect(await dump()).toEqual(live);
    expect(await claimedBy(ticket.id)).toMatchObject({ name: 'Cy', device: 'iPhone' });
  });
});
