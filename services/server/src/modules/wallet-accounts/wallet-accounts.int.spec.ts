import { randomUUID } from 'node:crypto';
import type { Account, AccountTicketsResponse, DuplicateGroup, Ticket, User } from '@seatlink/contracts';
import { createWalletSim, type WalletSimApp } from '@seatlink/wallet-sim';
import { CommandBus } from '@nestjs/cqrs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { WalletLinkCommandMessage } from './wallet-account.command.js';

const PASSWORD = 'Wallet123!';

/** A pass of the simulator's control API, visible at once. */
const pass = (name: string, overrides: Record<string, unknown> = {}) => ({
  id: name.split('@')[0]!,
  barcode: `BC-${name.split('@')[0]!}`,
  event: { title: `Harbourside Athletic vs Rovers ${name.split('@')[0]!}`, subtitle: 'Premier Division · Matchday 13' },
  venue: { name: 'Quayside Stadium' },
  seat: { section: '112', row: 'K', seat: '23' },
  next_game: { title: 'Harbourside Athletic vs Northgate Rovers', date: '2026-12-05T15:00:00.000Z' },
  visible_after_ms: 0,
  ...overrides,
});

describe('wallet accounts and their tickets, against the simulated wallet provider over HTTP', () => {
  let sim: WalletSimApp;
  let simUrl: string;
  let stack: TestStack;
  let user: ApiClient;
  let other: ApiClient;
  let admin: ApiClient;
  let database: Database;

  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${simUrl}/control${path}`, {
      method,
      headers: {
        'x-control-key': sim.walletSim.controlKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 400) throw new Error(`control ${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : await res.json();
  };
  const wallet = async (email: string, passes: Array<ReturnType<typeof pass>> = []) => {
    await control('POST', '/wallets', { email, password: PASSWORD, first_name: 'Wally', last_name: 'Tester' });
    for (const p of passes) await control('POST', `/wallets/${encodeURIComponent(email)}/passes`, p);
  };
  const tickets = async (client: ApiClient) => (await client.request('GET', '/v1/tickets')).body.tickets as Ticket[];
  const accounts = async (client: ApiClient) =>
    (await client.request('GET', '/v1/accounts')).body.accounts as Account[];
  const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}@wallet.test`;

  beforeAll(async () => {
    sim = createWalletSim({ env: {}, rateLimit: { requestsPerSecond: 0 } });
    await sim.listen({ port: 0, host: '127.0.0.1' });
    const address = sim.server.address();
    simUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    stack = await startTestStack({
      env: {
        WALLET_PROVIDER_URL: simUrl,
        WALLET_SYNC_FOLLOW_UPS_MS: '300,1000',
        WALLET_SYNC_EVERY_MS: '60000',
        // A link found unfinished is looked at a second after its claim.
        FLOW_CHECK_AFTER_MS: '1000',
      },
    });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    other = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    await user.login('user@seatlink.test', 'User1234!');
    // The admin stands in for "another user" (a user's calls are the same for every user).
    await other.login('admin@seatlink.test', 'Admin123!');
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('links an account with its wallet e-mail and password, keeps no password, and syncs its tickets in', async () => {
    const email = unique('link');
    await wallet(email, [pass(`p1-${email}`), pass(`p2-${email}`)]);
    const res = await user.request('POST', '/v1/accounts', { email, password: PASSWORD });
    expect([201, 202]).toContain(res.status);
    const account = res.body as unknown as Account;
    expect(account).toMatchObject({ email, in_error_state: false, name: 'Wally Tester' });
    await expect
      .poll(async () => (await tickets(user)).filter((t) => t.account_email === email).length, { timeout: 15_000 })
      .toBe(2);
    const ticket = (await tickets(user)).find((t) => t.account_email === email)!;
    expect(ticket).toMatchObject({
      account_id: account.id,
      venue_name: 'Quayside Stadium',
      seat: { section: '112', row: 'K', seat: '23', seat_info_combined: 'Section 112, Row K, Seat 23' },
      metadata: { next_game: 'Harbourside Athletic vs Northgate Rovers', next_game_date: '2026-12-05T15:00:00.000Z' },
      is_duplicate: false,
      is_distributed: false,
      distribution: null,
    });
    // The password is nowhere: not in an event, not in a table.
    const [hits] = await database.query<{ n: number }>(
      `select (select count(*) from events where data::text like '%' || $1 || '%')::int
            + (select count(*) from wallet_credentials where sealed_token like '%' || $1 || '%')::int as n`,
      [PASSWORD],
    );
    expect(hits!.n).toBe(0);
    await expect
      .poll(async () => (await accounts(user)).find((a) => a.id === account.id)?.last_synced_at, { timeout: 10_000 })
      .not.toBeNull();
    expect((await accounts(user)).find((a) => a.id === account.id)?.ticket_count).toBe(2);
  });

  it('picks up passes that arrive later (the arrival delay) on the follow-up syncs, and drops those that leave', async () => {
    const email = unique('arrive');
    await wallet(email, [pass(`a1-${email}`)]);
    const linked = (await user.request('POST', '/v1/accounts', { email, password: PASSWORD }))
      .body as unknown as Account;
    await expect
      .poll(async () => (await tickets(user)).filter((t) => t.account_id === linked.id).length, { timeout: 10_000 })
      .toBe(1);
    await control(
      'POST',
      `/wallets/${encodeURIComponent(email)}/passes`,
      pass(`a2-${email}`, { visible_after_ms: 500 }),
    );
    await control(
      'DELETE',
      `/wallets/${encodeURIComponent(email)}/passes/${encodeURIComponent(`a1-${email}`.split('@')[0]!)}`,
    );
    await expect
      .poll(async () => (await tickets(user)).filter((t) => t.account_id === linked.id).map((t) => t.title), {
        timeout: 15_000,
      })
      .toEqual([`Harbourside Athletic vs Rovers a2-${email.split('@')[0]!}`]);
  });

  it('refuses a wrong wallet password with 400 and writes nothing', async () => {
    const email = unique('wrong');
    await wallet(email);
    const before = (await accounts(user)).length;
    const res = await user.request('POST', '/v1/accounts', { email, password: 'Nope1234!' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'WALLET_AUTH_FAILED' });
    expect((await accounts(user)).length).toBe(before);
    const [claims] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where stream_id like 'wallet-link-%' and data->>'email' = $1`,
      [email],
    );
    expect(claims!.n).toBe(0);
  });

  it('refuses to link the same wallet twice (409), and links a batch entry by entry', async () => {
    const email = unique('twice');
    const free = unique('free');
    await wallet(email);
    await wallet(free);
    expect([201, 202]).toContain((await user.request('POST', '/v1/accounts', { email, password: PASSWORD })).status);
    const again = await user.request('POST', '/v1/accounts', { email, password: PASSWORD });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ACCOUNT_ALREADY_LINKED');
    const batch = await user.request('POST', '/v1/accounts/batch', {
      accounts: [
        { email: free, password: PASSWORD },
        { email, password: PASSWORD },
        { email: unique('ghost'), password: PASSWORD },
      ],
    });
    expect(batch.status).toBe(200);
    expect(batch.body).toMatchObject({ linked: 1, failed: 2 });
    const results = batch.body.results as Array<{ email: string; account?: Account; error?: { code: string } }>;
    expect(results[0]!.account?.email).toBe(free);
    expect(results[1]!.error?.code).toBe('ACCOUNT_ALREADY_LINKED');
    expect(results[2]!.error?.code).toBe('WALLET_AUTH_FAILED');
  });

  it('puts an account whose sign-in was revoked in error, without retrying, until it signs in again', async () => {
    const email = unique('revoked');
    await wallet(email, [pass(`r1-${email}`)]);
    const account = (await user.request('POST', '/v1/accounts', { email, password: PASSWORD }))
      .body as unknown as Account;
    await expect
      .poll(async () => (await tickets(user)).filter((t) => t.account_id === account.id).length, { timeout: 10_000 })
      .toBe(1);
    await control('POST', `/wallets/${encodeURIComponent(email)}/password`, { password: 'Changed123!' });
    await expect
      .poll(async () => (await accounts(user)).find((a) => a.id === account.id)?.in_error_state, { timeout: 15_000 })
      .toBe(true);
    const inError = (await accounts(user)).find((a) => a.id === account.id)!;
    expect(inError.last_error).toMatch(/password was changed/);
    // Its tickets stay (the wallet did not say they left).
    expect((await tickets(user)).filter((t) => t.account_id === account.id)).toHaveLength(1);

    const wrong = await user.request('POST', `/v1/accounts/${account.id}/reauth`, { email, password: PASSWORD });
    expect(wrong.status).toBe(400);
    const reauth = await user.request('POST', `/v1/accounts/${account.id}/reauth`, { email, password: 'Changed123!' });
    expect([200, 202]).toContain(reauth.status);
    expect((reauth.body as unknown as Account).in_error_state).toBe(false);
    await control('POST', `/wallets/${encodeURIComponent(email)}/passes`, pass(`r2-${email}`));
    await expect
      .poll(async () => (await tickets(user)).filter((t) => t.account_id === account.id).length, { timeout: 15_000 })
      .toBe(2);
  });

  it("answers 404 for another user's account on every call", async () => {
    const email = unique('mine');
    await wallet(email);
    const account = (await user.request('POST', '/v1/accounts', { email, password: PASSWORD }))
      .body as unknown as Account;
    const calls: Array<[string, string, unknown?]> = [
      ['POST', `/v1/accounts/${account.id}/reauth`, { email, password: PASSWORD }],
      ['DELETE', `/v1/accounts/${account.id}`],
      ['GET', `/v1/accounts/${account.id}/tickets`],
      ['GET', `/accounts/${account.id}/tickets`],
    ];
    for (const [method, path, body] of calls) {
      const res = await other.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe('Account not found');
    }
    expect((await accounts(other)).some((a) => a.id === account.id)).toBe(false);
    const mine = await user.request('GET', `/v1/accounts/${account.id}/tickets`);
    expect(mine.status).toBe(200);
    expect((mine.body as unknown as AccountTicketsResponse).account.id).toBe(account.id);
    // The first path, without v1, answers the same (deprecated, kept for one version).
    const old = await user.request('GET', `/accounts/${account.id}/tickets`);
    expect(old).toMatchObject({ status: 200, body: mine.body });
  });

  it('marks the same pass in two accounts as a duplicate of the one seen first; moving it resolves the group', async () => {
    const first = unique('dupa');
    const second = unique('dupb');
    const shared = pass(`shared-${first}`);
    await wallet(first, [shared]);
    await wallet(second, [shared]);
    const a = (await user.request('POST', '/v1/accounts', { email: first, password: PASSWORD }))
      .body as unknown as Account;
    await expect
      .poll(async () => (await tickets(user)).filter((t) => t.account_id === a.id).length, { timeout: 10_000 })
      .toBe(1);
    const b = (await other.request('POST', '/v1/accounts', { email: second, password: PASSWORD }))
      .body as unknown as Account;
    await expect
      .poll(async () => (await tickets(other)).find((t) => t.account_id === b.id)?.is_duplicate, { timeout: 15_000 })
      .toBe(true);
    expect((await tickets(user)).find((t) => t.account_id === a.id)?.is_duplicate).toBe(false);
    // The second ticket reads as a duplicate as soon as the pass has its first holder; the group lists it once its
    // own claim is in (the pass claims are a reaction of their own, a moment later under load).
    const groupOfFirst = async () =>
      ((await admin.request('GET', '/v1/admin/tickets/duplicates')).body.duplicate_groups as DuplicateGroup[]).find(
        (g) => g.master_ticket.account.email === first,
      );
    await expect.poll(async () => (await groupOfFirst())?.duplicate_tickets.length, { timeout: 15_000 }).toBe(1);
    const group = (await groupOfFirst())!;
    expect(group.duplicate_tickets.map((t) => t.account.email)).toEqual([second]);
    expect(group.master_ticket.user.email).toBe('user@seatlink.test');

    // The pass leaves the first wallet: the second account's ticket is the only one, no longer a duplicate.
    await control('DELETE', `/wallets/${encodeURIComponent(first)}/passes/${encodeURIComponent(shared.id)}`);
    // Its follow-up syncs are over and the hourly one may be a minute away: signing in again syncs it at once.
    expect(
      (await user.request('POST', `/v1/accounts/${a.id}/reauth`, { email: first, password: PASSWORD })).status,
    ).toBe(200);
    await expect
      .poll(async () => (await tickets(other)).find((t) => t.account_id === b.id)?.is_duplicate, { timeout: 15_000 })
      .toBe(false);
  });

  it('deletes an account with its tickets; the wallet can be linked again', async () => {
    const email = unique('gone');
    await wallet(email, [pass(`g1-${email}`)]);
    const account = (await user.request('POST', '/v1/accounts', { email, password: PASSWORD }))
      .body as unknown as Account;
    await expect
      .poll(async () => (await tickets(user)).filter((t) => t.account_id === account.id).length, { timeout: 10_000 })
      .toBe(1);
    const res = await user.request('DELETE', `/v1/accounts/${account.id}`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Account successfully deleted');
    expect((await accounts(user)).some((a) => a.id === account.id)).toBe(false);
    expect((await tickets(user)).some((t) => t.account_id === account.id)).toBe(false);
    expect((await user.request('DELETE', `/v1/accounts/${account.id}`)).status).toBe(404);
    await expect
      .poll(async () => (await user.request('POST', '/v1/accounts', { email, password: PASSWORD })).status, {
        timeout: 10_000,
      })
      .toBeLessThan(300);
  });

  it('gives back the claim of a link that died before recording its account, and keeps those of linked ones', async () => {
    const link = (email: string) => user.request('POST', '/v1/accounts', { email, password: PASSWORD });
    const linked = unique('kept');
    await wallet(linked);
    expect((await link(linked)).status).toBeLessThan(300);
    // What a link whose process died after its claim leaves: the claim, no account.
    const email = unique('died');
    await wallet(email);
    const userId = (await user.request('GET', '/v1/me')).body.id as string;
    const claim = { userId, email, accountId: randomUUID() };
    await stack.app.get(CommandBus).execute(new WalletLinkCommandMessage({ type: 'ClaimLink', data: claim }));
    expect((await link(email)).status).toBe(409);
    await expect.poll(async () => (await link(email)).status, { timeout: 15_000 }).toBeLessThan(300);
    // The linked account's claim was looked at the same way, and holds.
    expect((await link(linked)).status).toBe(409);
  });

  it('lists every account with its owner for admins, and refuses the admin calls to others', async () => {
    const list = await admin.request('GET', '/v1/admin/accounts');
    expect(list.status).toBe(200);
    const all = list.body.accounts as Array<Account & { user: { email: string } }>;
    expect(all.some((a) => a.user.email === 'user@seatlink.test')).toBe(true);
    expect((await admin.request('GET', '/v1/admin/tickets')).status).toBe(200);
    for (const path of ['/v1/admin/accounts', '/v1/admin/tickets', '/v1/admin/tickets/duplicates']) {
      expect((await user.request('GET', path)).status).toBe(403);
      expect((await new ApiClient(stack.baseUrl).request('GET', path)).status).toBe(401);
    }
    void (null as unknown as User);
  });
});
