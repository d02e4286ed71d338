import type {
  AuditEntry,
  DistributeResponse,
  PublicLink,
  Ticket,
  UpdateDistributionResponse,
  User,
} from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { linkWalletWith, passes, simControl, startSim } from '../../testing/wallet-fixture.js';

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

describe('a PIN on a link: asked before "Add to wallet", never counted without it, locked after 10 wrong ones', () => {
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
        THROTTLE_PIN_LINK: '14',
        THROTTLE_PIN_IP: '60',
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

  it('locks the link at the 10th wrong PIN of 12 sent at once, until its owner sets a new one', async () => {
    const { code, distributionId, ticket } = await makeLink({ pin: '0000' });
    const answers = await Promise.all(Array.from({ length: 12 }, () => claim(code, { pin: '9999' }).then(answer)));
    const codes = answers.map((a) => a.body.code).sort();
    expect(codes.filter((c) => c === 'PIN_INVALID')).toHaveLength(9);
    expect(codes.filter((c) => c === 'PIN_LOCKED')).toHaveLength(3);
    expect(answers.find((a) => a.body.code === 'PIN_LOCKED')!.status).toBe(423);
    // Locked: the right PIN opens nothing, and nothing was counted.
    expect(await answer(await claim(code, { pin: '0000' }))).toMatchObject({
      status: 423,
      body: {
        code: 'PIN_LOCKED',
        message: 'This link is locked after too many wrong PINs. Ask its sender for a new PIN.',
      },
    });
    expect(await view(code)).toMatchObject({ pin: 'locked' });
    expect((await counter(code)).clicks).toBe(0);
    // The owner sees it, and the audit log says it, once.
    await subscriptionsCaughtUp(stack.app);
    expect(await distributionOf(ticket.id)).toMatchObject({ has_pin: true, pin_locked: true });
    const [locks] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where stream_id = $1 and type = 'LinkPinLocked'`,
      [`ticket-distribution-${ticket.id}`],
    );
    expect(locks!.n).toBe(1);
    const audits = (await admin.request('GET', `/v1/admin/users/${userId}/audits?event_type=LINK_UPDATED&limit=500`))
      .body.audits as AuditEntry[];
    expect(audits.find((a) => a.event_data.distribution_id === distributionId)!.event_data).toMatchObject({
      changes: { pin: { from: 'set', to: 'locked' } },
      reason: 'Locked after 10 wrong PINs',
    });

    // A new PIN unlocks it: the old one is wrong now, the new one counts.
    const edited = await user.request('PATCH', `/v1/distributions/${distributionId}`, { pin: '4321' });
    expect(edited.status).toBe(200);
    expect((edited.body as unknown as UpdateDistributionResponse).distribution).toMatchObject({
      has_pin: true,
      pin_locked: false,
    });
    expect(await view(code)).toMatchObject({ pin: 'required' });
    expect((await counter(code)).pin_failures).toBe(0);
  });

  it('throttles PINs per link (429) and counts no click for a throttled claim', async () => {
    const { code } = await makeLink({ pin: '1111' });
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) statuses.push((await claim(code, { pin: '1111' })).status);
    expect(statuses).toEqual(Array(14).fill(200));
    const limited = await answer(await claim(code, { pin: '1111' }));
    expect(limited).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect((await counter(code)).clicks).toBe(14);
    // A claim without a PIN is not a PIN tried: it is refused as ever, and not throttled.
    expect((await answer(await claim(code))).body.code).toBe('PIN_REQUIRED');
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
