import type { INestApplicationContext } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type AuditEntry,
  type DistributeResponse,
  LINK_MESSAGES,
  notificationText,
  type NotificationsResponse,
  type PublicLink,
  type Ticket,
  type UpdateDistributionResponse,
  type User,
} from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { seed } from '../../seed.js';
import {
  ApiClient,
  startTestStack,
  startTestWorker,
  subscriptionsCaughtUp,
  type TestStack,
} from '../../testing/test-app.js';
import { WebhookReceiver } from '../../testing/webhook-receiver.js';
import { until } from '../../testing/until.js';
import { hasRedisServer, type PrivateRedis, startPrivateRedis } from '../../testing/private-redis.js';
import { linkWalletWith, passes, simControl, startSim } from '../../testing/wallet-fixture.js';

/** An endpoint of the owner's own system (webhooks), on this machine. */
const hookReceiver = () => new WebhookReceiver('/hook').start();

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

describe('a PIN on a link: asked before "Add to wallet", never counted without it, slowed per device and address, never locked', () => {
  let sim: WalletSimApp;
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  let user: ApiClient;
  let userId: string;
  let tickets: Ticket[];
  let next = 0;

  const claim = (code: string, body?: unknown) =>
    fetch(`${stack.baseUrl}/v1/links/${code}/claim`, {
      method: 'POST',
      headers: { 'user-agent': BROWSER, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const receivers: WebhookReceiver[] = [];
  /** A claim with a PIN from one address (X-Forwarded-For, TRUST_PROXY) and device (none: the address only). */
  const claimFrom = async (code: string, from: { ip: string; device: string | null }, pin: string) => {
    const res = await fetch(`${stack.baseUrl}/v1/links/${code}/claim`, {
      method: 'POST',
      headers: { 'user-agent': BROWSER, 'content-type': 'application/json', 'x-forwarded-for': from.ip },
      body: JSON.stringify({ pin, ...(from.device ? { device_id: from.device } : {}) }),
    });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
      retryAfter: res.headers.get('retry-after'),
    };
  };
  const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });
  const view = async (code: string) =>
    (await (
      await fetch(`${stack.baseUrl}/v1/links/${code}`, { headers: { 'user-agent': BROWSER } })
    ).json()) as PublicLink;
  const counter = async (code: string) =>
    (
      await database.query<{ clicks: number; pin_failures: number }>(
        'select clicks, pin_failures from link_counters where code = $1',
        [code],
      )
    )[0]!;
  const makeLink = async (options: Record<string, unknown> = {}) => {
    const ticket = tickets[next++]!;
    const res = await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [ticket.id], ...options });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const made = (res.body as unknown as DistributeResponse).distributions[0]!;
    return { code: made.link.split('/l/')[1]!, distributionId: made.distribution_id, ticket };
  };
  const distributionOf = async (ticketId: string) =>
    ((await user.request('GET', '/v1/tickets')).body.tickets as Ticket[]).find((t) => t.id === ticketId)!.distribution;

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    stack = await startTestStack({
      env: {
        WALLET_PROVIDER_URL: url,
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        WALLET_SYNC_EVERY_MS: '600000',
        THROTTLE_PIN_DEVICE: '3',
        THROTTLE_PIN_IP: '6',
        THROTTLE_PIN_MAX_WAIT_SECONDS: '4',
        TRUST_PROXY: 'true',
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_SETTLE_MS: '100',
        WEBHOOK_SWEEP_MS: '400',
      },
    });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 1_000, reason: 'Test' });
    ({ tickets } = await linkWalletWith(user, simControl(url), 'pins@wallet.test', passes('pins', 12)));
  }, 60_000);
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await stack?.close();
    await sim?.close();
  });

  it('asks for the PIN, counts nothing without it or with a wrong one, and counts the claim with the right one', async () => {
    const { code, ticket } = await makeLink({ pin: '2468', max_clicks: 5 });
    expect(await distributionOf(ticket.id)).toMatchObject({ has_pin: true, pin_locked: false });
    expect(await view(code)).toMatchObject({ state: 'active', pin: 'required' });
    // The PIN is kept only as a hash: it is in no event, no row.
    const [stored] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where data::text like '%2468%'`,
    );
    expect(stored!.n).toBe(0);

    expect(await answer(await claim(code))).toMatchObject({
      status: 401,
      body: { code: 'PIN_REQUIRED', message: 'Enter the PIN the sender gave you' },
    });
    expect(await answer(await claim(code, { pin: '1357' }))).toMatchObject({
      status: 401,
      body: { code: 'PIN_INVALID', message: 'That PIN is not right' },
    });
    for (const pin of ['12ab', '123', '123456789', 1234, { a: 1 }, '１２３４']) {
      const refused = await answer(await claim(code, { pin }));
      expect(refused.status, JSON.stringify(pin)).toBe(400);
      expect(refused.body).toMatchObject({ code: 'PIN_FORMAT', message: 'A PIN is 4 to 8 digits' });
    }
    expect(await counter(code)).toEqual({ clicks: 0, pin_failures: 1 });
    const ok = await claim(code, { pin: '2468' });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { wallet_url: string }).wallet_url).toMatch(/\/save\//);
    expect((await counter(code)).clicks).toBe(1);
  });

  it('refuses a PIN that is not 4 to 8 digits when a link is made or edited', async () => {
    const ticket = tickets[next++]!;
    for (const pin of ['abcd', '123', '', 42]) {
      const res = await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [ticket.id], pin });
      expect(res.status, JSON.stringify(pin)).toBe(400);
      expect(JSON.stringify(res.body)).toContain('PIN must be 4 to 8 digits');
    }
    const { distributionId } = await makeLink();
    const res = await user.request('PATCH', `/v1/distributions/${distributionId}`, { pin: 'abcd' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('PIN must be 4 to 8 digits');
  });

  it('slows a guesser per device and per address with growing waits (429, Retry-After 1, 2, 4 s); the right PIN from elsewhere claims', async () => {
    const { code } = await makeLink({ pin: '0000' });
    const guesser = { ip: '198.51.100.7', device: 'guesser-device-1' };
    // THROTTLE_PIN_DEVICE=3: three at once, then one try per wait, each wait twice the last.
    for (let i = 0; i < 4; i++) expect((await claimFrom(code, guesser, '9999')).body.code).toBe('PIN_INVALID');
    const waits: number[] = [];
    for (const wait of [1, 2, 4]) {
      const slowed = await claimFrom(code, guesser, '9999');
      expect(slowed).toMatchObject({
        status: 429,
        body: { code: 'RATE_LIMITED', message: LINK_MESSAGES.pinSlowed(wait) },
      });
      waits.push(Number(slowed.retryAfter));
      await sleep(wait * 1000 + 100);
      expect((await claimFrom(code, guesser, '9999')).body.code).toBe('PIN_INVALID');
    }
    expect(waits).toEqual([1, 2, 4]);
    // Slowed, the guesser's device is refused even the right PIN (it is not checked): nothing counted.
    expect((await claimFrom(code, guesser, '0000')).status).toBe(429);
    // The recipient, on another device and address, is not slowed by any of it: the right PIN claims at once.
    const recipient = await claimFrom(code, { ip: '192.0.2.44', device: 'recipient-device-1' }, '0000');
    expect(recipient.status, JSON.stringify(recipient.body)).toBe(200);
    expect(await view(code)).toMatchObject({ pin: 'required' });
  });

  it('lets at most THROTTLE_PIN_IP + 1 of 30 wrong PINs sent at once from one address reach the check', async () => {
    const { code } = await makeLink({ pin: '0000' });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        claimFrom(code, { ip: '198.51.100.30', device: `burst-device-${i}` }, '9999'),
      ),
    );
    const checked = answers.filter((a) => a.body.code === 'PIN_INVALID').length;
    expect(checked).toBeGreaterThanOrEqual(6);
    expect(checked).toBeLessThanOrEqual(7);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(30 - checked);
    for (const a of answers.filter((x) => x.status === 429)) expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    // Only the PINs checked were counted on the link.
    expect((await counter(code)).pin_failures).toBe(checked);
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
  });

  it('after 50 wrong PINs the right one still claims at once; the owner is told once (bell, webhook, audit), and a rebuild keeps it', async () => {
    const hook = await hookReceiver();
    receivers.push(hook);
    const endpoint = await user.request('POST', '/v1/me/webhooks', { url: hook.url, events: ['link.pin_guessed'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const { code, distributionId, ticket } = await makeLink({ pin: '2580', label: 'for Robin' });
    // 50 wrong PINs, each from an address of its own (none of them slowed): the link's count is 50, far past any lock.
    for (let i = 0; i < 50; i++) {
      const wrong = await claimFrom(code, { ip: `203.0.113.${i + 1}`, device: null }, String(1000 + i));
      expect(wrong.body.code).toBe('PIN_INVALID');
    }
    const right = await claimFrom(code, { ip: '192.0.2.99', device: 'recipient-device-2' }, '2580');
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(await counter(code)).toEqual({ clicks: 1, pin_failures: 50 });

    // Told once for the burst: at the 5th wrong PIN of the window, with its count.
    const [guessed] = await database.query<{ n: number; failures: number }>(
      `select count(*)::int as n, max((data->>'failures')::int) as failures from events
       where stream_id = $1 and type = 'LinkPinGuessed'`,
      [`ticket-distribution-${ticket.id}`],
    );
    expect(guessed).toEqual({ n: 1, failures: 5 });
    await subscriptionsCaughtUp(stack.app);
    const bell = async () =>
      (
        (await user.request('GET', '/v1/notifications?limit=100')).body as unknown as NotificationsResponse
      ).notifications.filter((n) => n.kind === 'link_pin_guessed' && n.distribution_id === distributionId);
    const told = await bell();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ count: 5, label: 'for Robin', ticket_id: ticket.id });
    expect(notificationText(told[0]!, (iso) => iso)).toContain('set a new one with Edit Link');
    await until('the webhook delivery', () => hook.ofType('link.pin_guessed').length === 1);
    expect(hook.ofType('link.pin_guessed')[0]!.body!.data).toMatchObject({
      distribution_id: distributionId,
      ticket_id: ticket.id,
      failures: 5,
    });
    const audits = (
      await admin.request('GET', `/v1/admin/users/${userId}/audits?event_type=LINK_PIN_GUESSED&limit=500`)
    ).body.audits as AuditEntry[];
    const entries = audits.filter((a) => a.event_data.distribution_id === distributionId);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.event_data).toMatchObject({ failures: 5 });
    expect(JSON.stringify(entries)).not.toContain('argon2');
    expect(await distributionOf(ticket.id)).toMatchObject({ has_pin: true, pin_locked: false });

    // A rebuild of the read models makes the same notification and audit entry; no delivery goes again.
    await stack.app.get(SubscriptionOperations).reset(['notifications', 'audit-log', 'links']);
    await subscriptionsCaughtUp(stack.app);
    expect(await bell()).toEqual(told);
    const rebuilt = (
      await admin.request('GET', `/v1/admin/users/${userId}/audits?event_type=LINK_PIN_GUESSED&limit=500`)
    ).body.audits as AuditEntry[];
    expect(rebuilt.filter((a) => a.event_data.distribution_id === distributionId)).toEqual(entries);
    await sleep(1500);
    expect(hook.ofType('link.pin_guessed')).toHaveLength(1);
  });

  it('removes the PIN with null (claims need none), and sets one on a link made without', async () => {
    const { code, distributionId, ticket } = await makeLink({ pin: '5555' });
    const removed = await user.request('PATCH', `/v1/distributions/${distributionId}`, { pin: null });
    expect((removed.body as unknown as UpdateDistributionResponse).distribution.has_pin).toBe(false);
    expect(await view(code)).toMatchObject({ pin: 'none' });
    expect((await claim(code)).status).toBe(200);
    // A PIN sent to a link without one is no matter: the claim counts.
    expect((await claim(code, { pin: '5555' })).status).toBe(200);
    expect((await counter(code)).clicks).toBe(2);

    const plain = await makeLink();
    expect((await user.request('PATCH', `/v1/distributions/${plain.distributionId}`, { pin: '8080' })).status).toBe(
      200,
    );
    expect((await answer(await claim(plain.code))).body.code).toBe('PIN_REQUIRED');
    expect((await claim(plain.code, { pin: '8080' })).status).toBe(200);
    // The audit log says a PIN was set, never which.
    const audits = (await admin.request('GET', `/v1/admin/users/${userId}/audits?event_type=LINK_UPDATED&limit=500`))
      .body.audits as AuditEntry[];
    const set = audits.find((a) => a.event_data.distribution_id === plain.distributionId)!;
    expect(set.event_data.changes).toEqual({ pin: { from: 'none', to: 'set' } });
    expect(JSON.stringify(audits)).not.toContain('argon2');
    expect(await distributionOf(ticket.id)).toMatchObject({ has_pin: false });
  });
});

// The PIN waits are counted in Redis; with Redis gone they are counted in the process's memory, as every limit of
// ThrottleService is: a guesser is still slowed (429, never a 500) and the right PIN still claims.
describe.runIf(hasRedisServer())('PIN waits while Redis is down', () => {
  let sim: WalletSimApp;
  let redis: PrivateRedis;
  let stack: TestStack;
  let worker: INestApplicationContext;
  let user: ApiClient;
  let code: string;

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    redis = await startPrivateRedis();
    // An API process and a worker, as where Redis is used (the realtime spec's set-up, which closes with Redis back).
    stack = await startTestStack({
      role: 'api',
      env: {
        REDIS_URL: redis.url,
        WALLET_PROVIDER_URL: url,
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        WALLET_SYNC_EVERY_MS: '600000',
        THROTTLE_PIN_DEVICE: '2',
        THROTTLE_PIN_IP: '2',
        TRUST_PROXY: 'true',
      },
    });
    worker = await startTestWorker(stack.config);
    await seed(worker);
    const admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    const userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 100, reason: 'Test' });
    const { tickets } = await linkWalletWith(user, simControl(url), 'pins-down@wallet.test', passes('pins-down', 1));
    const res = await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [tickets[0]!.id], pin: '4444' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    code = (res.body as unknown as DistributeResponse).distributions[0]!.link.split('/l/')[1]!;
  }, 90_000);
  afterAll(async () => {
    // Closing after Redis went away and came back can wait on its queues' clients well past the hook's time: bounded
    // here (what this spec proves is done by then; the test process ends what is left).
    const closing = (async () => {
      await worker?.close();
      await stack?.close();
    })();
    await Promise.race([closing, sleep(20_000)]);
    await redis?.kill();
    await sim?.close();
  });

  it('slows a guesser in memory and lets the right PIN from elsewhere claim', async () => {
    await redis.kill();
    const claim = async (ip: string, device: string, pin: string) => {
      const res = await fetch(`${stack.baseUrl}/v1/links/${code}/claim`, {
        method: 'POST',
        headers: { 'user-agent': BROWSER, 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ pin, device_id: device }),
      });
      return {
        status: res.status,
        code: ((await res.json()) as { code?: string }).code,
        retryAfter: res.headers.get('retry-after'),
      };
    };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await claim('198.51.100.77', 'down-guesser-1', '1111')).status);
    // Two at once, the third through the first wait, then slowed.
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const slowed = await claim('198.51.100.77', 'down-guesser-1', '1111');
    expect(slowed).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: '1' });
    expect((await claim('192.0.2.7', 'down-recipient-1', '4444')).status).toBe(200);
    // Back, for the stack to close as it would.
    await redis.start();
  }, 60_000);
});
