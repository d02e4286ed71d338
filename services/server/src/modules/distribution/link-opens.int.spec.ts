import {
  type ClickTimelineResponse,
  type DistributeResponse,
  LINK_MESSAGES,
  type LinkActivityResponse,
  type Ticket,
  type User,
} from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { linkWalletWith, passes, simControl, startSim } from '../../testing/wallet-fixture.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

describe('opens of links: the first open of each device is one event; the holder sees opens and claims', () => {
  let sim: WalletSimApp;
  let stack: TestStack;
  let database: Database;
  let user: ApiClient;
  let userId: string;
  let tickets: Ticket[];
  let next = 0;

  const open = (code: string, body: unknown, userAgent: string | null = IPHONE) =>
    fetch(`${stack.baseUrl}/v1/links/${code}/opens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(userAgent ? { 'user-agent': userAgent } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const openEvents = async (distributionId: string) =>
    database.query<{ device: string | null; referrer: string | null; device_hash: string }>(
      `select data->>'device' as device, data->>'referrer' as referrer, data->>'deviceHash' as device_hash
       from events where stream_id = $1 and type = 'LinkOpened' order by stream_position`,
      [`link-opens-${distributionId}`],
    );
  const devicesKept = async (distributionId: string) =>
    Number(
      (
        await database.query<{ n: string }>('select count(*) as n from link_open_devices where distribution_id = $1', [
          distributionId,
        ])
      )[0]!.n,
    );
  const makeLink = async (options: { expiry_date?: string } = {}) => {
    const ticket = tickets[next++]!;
    const res = await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [ticket.id], ...options });
    expect(res.status).toBe(200);
    const made = (res.body as unknown as DistributeResponse).distributions[0]!;
    return { code: made.link.split('/l/')[1]!, distributionId: made.distribution_id, ticket };
  };
  const timeline = async (distributionId: string) => {
    await subscriptionsCaughtUp(stack.app);
    const res = await user.request('GET', `/v1/distributions/${distributionId}/clicks`);
    expect(res.status).toBe(200);
    return res.body as unknown as ClickTimelineResponse;
  };
  const activity = async () => {
    await subscriptionsCaughtUp(stack.app);
    const res = await user.request('GET', '/v1/links/activity?days=7');
    expect(res.status).toBe(200);
    return res.body as unknown as LinkActivityResponse;
  };
  const projected = () =>
    database.query(
      `select 'm' as t, distribution_id::text as k, minute::text as k2, opens as a, 0 as b from link_open_minutes
       union all select 't', distribution_id::text, last_open_at::text, opens, 0 from link_open_totals
       union all select 'd', user_id::text, day::text, opens, claims from link_activity_days
       order by 1, 2, 3`,
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
    userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 10_000, reason: 'Test' });
    ({ tickets } = await linkWalletWith(user, simControl(url), 'opens@wallet.test', passes('opens', 12)));
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('records an open from a browser as one event with its device class and referrer; viewing counts nothing', async () => {
    const { code, distributionId } = await makeLink();
    expect((await fetch(`${stack.baseUrl}/v1/links/${code}`, { headers: { 'user-agent': IPHONE } })).status).toBe(200);
    expect(await openEvents(distributionId)).toEqual([]);
    const res = await open(code, { device_id: 'device-one-0001', referrer: 'WhatsApp.com' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ counted: true });
    const events = await openEvents(distributionId);
    expect(events).toMatchObject([{ device: 'iPhone', referrer: 'whatsapp.com' }]);
    // The device id itself is kept nowhere.
    expect(events[0]!.device_hash).not.toContain('device-one');
    // The same device again: nothing more.
    const again = await open(code, { device_id: 'device-one-0001' });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ counted: false });
    expect(await openEvents(distributionId)).toHaveLength(1);
    const answer = await timeline(distributionId);
    expect(answer.opens).toBe(1);
    expect(answer.open_minutes).toHaveLength(1);
    expect(answer.open_minutes[0]!.opens).toBe(1);
  });

  it('records one event for 50 opens at once from one device', async () => {
    const { code, distributionId } = await makeLink();
    const answers = await Promise.all(Array.from({ length: 50 }, () => open(code, { device_id: 'burst-device-01' })));
    expect(answers.map((a) => a.status).every((s) => s === 200)).toBe(true);
    const counted = await Promise.all(answers.map(async (a) => ((await a.json()) as { counted: boolean }).counted));
    expect(counted.filter(Boolean)).toHaveLength(1);
    expect(await openEvents(distributionId)).toHaveLength(1);
    expect(await devicesKept(distributionId)).toBe(1);
    expect((await timeline(distributionId)).opens).toBe(1);
  });

  it('counts three devices as three opens', async () => {
    const { code, distributionId } = await makeLink();
    for (const [device, agent] of [
      ['three-devices-a', IPHONE],
      ['three-devices-b', ANDROID],
      ['three-devices-c', DESKTOP],
    ] as const)
      expect((await open(code, { device_id: device }, agent)).status).toBe(200);
    expect((await openEvents(distributionId)).map((e) => e.device)).toEqual(['iPhone', 'Android phone', 'Windows PC']);
    expect((await timeline(distributionId)).opens).toBe(3);
  });

  it('records nothing for a bot, a link preview or a client that does not say what it is', async () => {
    const { code, distributionId } = await makeLink();
    expect((await open(code, { device_id: 'bot-device-0001' }, SLACKBOT)).status).toBe(200);
    expect((await open(code, { device_id: 'bot-device-0001' }, null)).status).toBe(200);
    expect(await openEvents(distributionId)).toEqual([]);
    expect(await devicesKept(distributionId)).toBe(0);
  });

  it('refuses bad bodies with 400 and a message, writing nothing; an unknown code is 404', async () => {
    const { code, distributionId } = await makeLink();
    let deep: unknown = { device_id: 'deep-device-001' };
    for (let i = 0; i < 200; i++) deep = { a: deep };
    const bad: Array<[unknown, string | RegExp]> = [
      [{ device_id: 'nul\u0000device' }, LINK_MESSAGES.deviceFormat],
      [{ device_id: 'short' }, LINK_MESSAGES.deviceFormat],
      [{ device_id: 'x'.repeat(65) }, LINK_MESSAGES.deviceFormat],
      [{}, LINK_MESSAGES.deviceFormat],
      [{ device_id: 'good-device-001', referrer: 'evil\u202Ecom' }, LINK_MESSAGES.referrerFormat],
      [{ device_id: 'good-device-001', referrer: 'a\u0000b' }, LINK_MESSAGES.referrerFormat],
      [{ device_id: 'good-device-001', referrer: 'r'.repeat(10_000) }, LINK_MESSAGES.referrerFormat],
      [{ device_id: 'good-device-001', referrer: 42 }, LINK_MESSAGES.referrerFormat],
      ['[1,2,3]', /./],
      ['"text"', /./],
      ['{"device_id": ', /./],
      [deep, /./],
    ];
    for (const [body, message] of bad) {
      const res = await open(code, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
    }
    expect(await openEvents(distributionId)).toEqual([]);
    expect(await devicesKept(distributionId)).toBe(0);
    const unknown = await open('A'.repeat(22), { device_id: 'good-device-001' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toBe(LINK_MESSAGES.notFound);
    expect((await open('not-a-code', { device_id: 'good-device-001' })).status).toBe(400);
  });

  it('records nothing for a withdrawn link', async () => {
    const { code, distributionId } = await makeLink();
    expect((await user.request('POST', `/v1/distributions/${distributionId}/recall`)).status).toBeLessThan(300);
    expect((await open(code, { device_id: 'recalled-dev-01' })).status).toBe(200);
    expect(await openEvents(distributionId)).toEqual([]);
  });

  it("answers the holder's activity: opens and claims by day, opened not claimed, expiring unclaimed", async () => {
    const before = await activity();
    const today = before.days.at(-1)!;
    expect(before.days).toHaveLength(7);
    const opened = await makeLink();
    const expiring = await makeLink({ expiry_date: new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString() });
    await open(opened.code, { device_id: 'activity-phone-1' });
    await open(opened.code, { device_id: 'activity-phone-2' }, ANDROID);
    let answer = await activity();
    expect(answer.days.at(-1)).toEqual({ ...today, opens: today.opens + 2 });
    expect(answer.opened_not_claimed.find((l) => l.distribution_id === opened.distributionId)).toMatchObject({
      ticket_id: opened.ticket.id,
      title: opened.ticket.title,
      opens: 2,
    });
    expect(answer.expiring_unclaimed.map((l) => l.distribution_id)).toContain(expiring.distributionId);
    expect(answer.expiring_unclaimed.map((l) => l.distribution_id)).not.toContain(opened.distributionId);

    const claim = await fetch(`${stack.baseUrl}/v1/links/${opened.code}/claim`, {
      method: 'POST',
      headers: { 'user-agent': IPHONE },
    });
    expect(claim.status).toBe(200);
    answer = await activity();
    expect(answer.days.at(-1)).toEqual({ day: today.day, opens: today.opens + 2, claims: today.claims + 1 });
    expect(answer.opened_not_claimed.map((l) => l.distribution_id)).not.toContain(opened.distributionId);

    const refused = await user.request('GET', '/v1/links/activity?days=0');
    expect(refused.status).toBe(400);
    expect((await user.request('GET', '/v1/links/activity?days=abc')).status).toBe(400);
  });

  it('gives the same rows after a rebuild', async () => {
    await subscriptionsCaughtUp(stack.app);
    const rows = await projected();
    expect(rows.length).toBeGreaterThan(0);
    await stack.app.get(SubscriptionOperations).reset(['link-opens']);
    await subscriptionsCaughtUp(stack.app);
    expect(await projected()).toEqual(rows);
  });
});
