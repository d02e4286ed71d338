import type { DistributeResponse, Ticket, TicketsResponse, User } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '../../infra/db/database.js';
import { DATABASE } from '../../infra/db/database.module.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { testBackends } from '../../testing/test-database.js';
import { createVerifiedUser } from '../../testing/users.js';
import { linkWalletWith, passes, simControl, startSim } from '../../testing/wallet-fixture.js';
import { ticketsClient } from '../../testing/tickets-client.js';
import { PurgeRemovedTicketsJob } from './purge-removed-tickets.job.js';
import { SyncWalletAccountJob } from './sync-wallet-account.job.js';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

// GET /v1/tickets by pages and by changes, on PostgreSQL and on the embedded server (npm start's default).
describe.each(testBackends())('GET /v1/tickets by pages and by changes (%s)', (_backend, embedded) => {
  let sim: WalletSimApp;
  let stack: TestStack;
  let user: ApiClient;
  let other: ApiClient;
  let mine: ReturnType<typeof ticketsClient>;
  let theirs: ReturnType<typeof ticketsClient>;
  let accountId: string;
  let otherAccountId: string;
  const email = 'changes@wallet.test';
  const otherEmail = 'changes-other@wallet.test';

  /** Every change so far is in the read models. */
  const settle = async () => {
    await subscriptionsCaughtUp(stack.app);
  };
  const sync = async (account: string) => {
    await stack.app.get(SyncWalletAccountJob).run({ accountId: account, reason: 'test' });
    await settle();
  };
  const ids = (tickets: readonly Ticket[]) => tickets.map((t) => t.id).sort();

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    stack = await startTestStack({
      embedded,
      env: { WALLET_PROVIDER_URL: url, WALLET_SYNC_FOLLOW_UPS_MS: '', WALLET_SYNC_EVERY_MS: '600000' },
    });
    const admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    user = new ApiClient(stack.baseUrl);
    const userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 1000, reason: 'Test' });
    const stranger = await createVerifiedUser(stack.app);
    other = new ApiClient(stack.baseUrl);
    await other.login(stranger.email, stranger.password);
    const control = simControl(url);
    // The other user holds a pass first; the user's copy of it (the same barcode) is then a duplicate.
    const shared = { ...passes('shared', 1)[0]!, id: 'theirs-0' };
    otherAccountId = (await linkWalletWith(other, control, otherEmail, [shared, ...passes('theirs', 3).slice(1)]))
      .account.id;
    accountId = (await linkWalletWith(user, control, email, [...passes('mine', 12), { ...shared, id: 'mine-copy' }]))
      .account.id;
    mine = ticketsClient(user);
    theirs = ticketsClient(other);
    await settle();
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('answers every ticket with the version it stands at, as docs/reference.md#api-calls has it', async () => {
    const res = await user.request('GET', '/v1/tickets');
    expect(res.status).toBe(200);
    const body = res.body as unknown as TicketsResponse;
    expect(Object.keys(body).sort()).toEqual(['tickets', 'version']);
    expect(body.version).toMatch(/^[1-9][0-9]*$/);
    expect(body.tickets).toHaveLength(13);
    expect(body.tickets.filter((t) => t.is_duplicate).map((t) => t.title)).toEqual(['Match 0']);
    // First-seen order.
    const order = body.tickets.map((t) => [t.created_at, t.id].join());
    expect(order).toEqual([...order].sort());
  });

  it('answers exactly what changed since a version: a link made, clicked, recalled; a ticket gone or new', async () => {
    const distribute = async (ticket: Ticket) => {
      const res = await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [ticket.id], max_clicks: 5 });
      expect(res.status).toBe(200);
      return (res.body as unknown as DistributeResponse).distributions[0]!;
    };
    const all = await mine.all();
    const a = all.find((t) => t.title === 'Match 1')!;
    const b = all.find((t) => t.title === 'Match 2')!;
    let version = await mine.settledVersion(settle);
    const nothing = await mine.since(version);
    expect([nothing.tickets, nothing.removed, nothing.full]).toEqual([[], [], false]);

    const link = await distribute(a);
    await settle();
    let changes = await mine.since(version);
    expect(ids(changes.tickets)).toEqual([a.id]);
    expect(changes.tickets[0]!.distribution).toMatchObject({ id: link.distribution_id, clicks: 0, max_clicks: 5 });

    version = await mine.settledVersion(settle);
    const claim = await fetch(`${stack.baseUrl}/v1/links/${link.link.split('/l/')[1]}/claim`, {
      method: 'POST',
      headers: { 'user-agent': BROWSER },
    });
    expect(claim.status).toBe(200);
    await settle();
    changes = await mine.since(version);
    expect(ids(changes.tickets)).toEqual([a.id]);
    expect(changes.tickets[0]!.distribution?.clicks).toBe(1);

    version = await mine.settledVersion(settle);
    expect((await user.request('POST', `/v1/distributions/${link.distribution_id}/recall`)).status).toBe(200);
    await settle();
    changes = await mine.since(version);
    expect(ids(changes.tickets)).toEqual([a.id]);
    expect(changes.tickets[0]!.distribution).toBeNull();

    // The wallet drops one pass, changes another and gains one: one sync, three answers.
    version = await mine.settledVersion(settle);
    sim.walletSim.removePass(email, 'mine-2');
    sim.walletSim.updatePass(email, 'mine-5', { venue: { name: 'Harbour Park' } });
    sim.walletSim.addPass(email, { ...passes('mine-new', 1)[0]!, id: 'mine-new' });
    await sync(accountId);
    changes = await mine.since(version);
    expect(changes.removed).toEqual([b.id]);
    expect(changes.tickets.map((t) => t.venue_name).sort()).toEqual(['Harbour Park', 'Quayside Stadium']);
    expect(changes.full).toBe(false);
    expect((await mine.all()).map((t) => t.id)).not.toContain(b.id);
  });

  it('answers a change of duplicate status: the first holder lets go, the copy is no duplicate any more', async () => {
    const copy = (await mine.all()).find((t) => t.is_duplicate)!;
    const version = await mine.settledVersion(settle);
    const theirsVersion = await theirs.settledVersion(settle);
    sim.walletSim.removePass(otherEmail, 'theirs-0');
    await sync(otherAccountId);
    const changes = await mine.since(version);
    expect(changes.tickets.map((t) => [t.id, t.is_duplicate])).toEqual([[copy.id, false]]);
    expect(changes.removed).toEqual([]);
    // The other user is told of their own ticket gone, never of the user's.
    const theirChanges = await theirs.since(theirsVersion);
    expect(theirChanges.tickets).toEqual([]);
    expect(theirChanges.removed).toHaveLength(1);
    expect(theirChanges.removed).not.toContain(copy.id);
  });

  it('pages every ticket once in first-seen order while tickets change, and since the first page catches up', async () => {
    const before = await mine.all();
    const seen: Ticket[] = [];
    let page = await mine.page(5);
    const first = page.version;
    for (let round = 0; ; round++) {
      seen.push(...page.tickets);
      if (round === 0) {
        // Meanwhile: a pass changes, one leaves, one arrives.
        sim.walletSim.updatePass(email, 'mine-7', { venue: { name: 'Riverside' } });
        sim.walletSim.removePass(email, 'mine-9');
        sim.walletSim.addPass(email, { ...passes('late', 1)[0]!, id: 'mine-late' });
        await sync(accountId);
      }
      if (page.next_cursor === null) break;
      page = await mine.page(5, page.next_cursor);
    }
    const seenIds = seen.map((t) => t.id);
    expect(new Set(seenIds).size).toBe(seenIds.length);
    const gone = before.find((t) => t.title === 'Match 9' && t.venue_name === 'Quayside Stadium')!;
    for (const t of before) if (t.id !== gone.id) expect(seenIds).toContain(t.id);
    // What the pages may have missed comes with the first page's version.
    const changes = await mine.since(first);
    const picture = new Map(seen.map((t) => [t.id, t]));
    for (const id of changes.removed) picture.delete(id);
    for (const t of changes.tickets) picture.set(t.id, t);
    expect([...picture.values()].sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      (await mine.all()).sort((x, y) => x.id.localeCompare(y.id)),
    );
  });

  it('answers in full (full: true) a version from before a rebuild, or older than the removals kept', async () => {
    const everything = ids(await mine.all());
    let version = await mine.settledVersion(settle);
    await stack.app.get(SubscriptionOperations).reset(['links']);
    await settle();
    let answer = await mine.since(version);
    expect(answer.full).toBe(true);
    expect(answer.removed).toEqual([]);
    expect(ids(answer.tickets)).toEqual(everything);
    expect((await mine.since(answer.version)).full).toBe(false);

    // Paged alike.
    version = await mine.settledVersion(settle);
    await stack.app.get(SubscriptionOperations).reset(['tickets', 'pass-groups']);
    await settle();
    answer = await mine.since(version, 100);
    expect(answer.full).toBe(true);
    expect(ids(answer.tickets)).toEqual(everything);

    version = await mine.settledVersion(settle);
    sim.walletSim.removePass(email, 'mine-3');
    await sync(accountId);
    expect((await mine.since(version)).removed).toHaveLength(1);
    expect(await stack.app.get(PurgeRemovedTicketsJob).purge(0)).toBeGreaterThan(0);
    answer = await mine.since(version);
    expect(answer.full).toBe(true);
    expect(ids(answer.tickets)).toEqual(ids(await mine.all()));
  });

  it('answers an account’s tickets as changed when its row comes after theirs, and no other write of it does', async () => {
    const { db } = stack.app.get<Database>(DATABASE);
    const everything = ids(await mine.all());
    // The account's row is not there yet (its projection behind the tickets', a rebuild of it alone): the answer,
    // which names each ticket's account, leaves its tickets out.
    const [row] = await queryRows<Record<string, unknown>>(
      db,
      sql`delete from wallet_accounts where id = ${accountId} returning *`,
    );
    expect(await mine.all()).toEqual([]);
    const version = await mine.settledVersion(settle);
    await db.execute(sql`insert into wallet_accounts select * from jsonb_populate_record(null::wallet_accounts,
                             ${JSON.stringify(row)}::jsonb)`);
    const answer = await mine.since(version);
    expect(answer.full).toBe(false);
    expect(ids(answer.tickets)).toEqual(everything);

    // A write of the row that leaves its e-mail (a sync's error state) changes no ticket.
    const after = await mine.settledVersion(settle);
    await db.execute(sql`update wallet_accounts set sync_error = 'timed out', updated_at = now()
                           where id = ${accountId}`);
    expect((await mine.since(after)).tickets).toEqual([]);

    // A rebuild of the accounts alone answers a version from before it in full.
    await stack.app.get(SubscriptionOperations).reset(['wallet-accounts']);
    await settle();
    const rebuilt = await mine.since(after);
    expect(rebuilt.full).toBe(true);
    expect(ids(rebuilt.tickets)).toEqual(everything);
  });

  it('never shows another user their tickets, whatever they ask', async () => {
    const own = new Set(ids(await mine.all()));
    for (const asked of [await theirs.all(), (await theirs.page(2000)).tickets, (await theirs.since('1')).tickets]) {
      expect(asked.length).toBeGreaterThan(0);
      for (const t of asked) expect(own.has(t.id)).toBe(false);
    }
  });

  it('refuses a bad query with 400 and the contract’s message, never a 500', async () => {
    const cursorAt = (seenUs: string) =>
      Buffer.from(`${seenUs}.00000000-0000-0000-0000-000000000000`, 'utf8').toString('base64url');
    const cases: Array<[string, RegExp]> = [
      ['limit=0', /^limit: /],
      ['limit=2001', /^limit: /],
      ['limit=abc', /^limit: /],
      ['limit=1e309', /^limit: /],
      ['limit=1.5', /^limit: /],
      ['limit=1&limit=2', /^limit: /],
      ['since=abc', /^since: since must be a version this call answered/],
      ['since=-1', /^since: since must be a version/],
      ['since=0123', /^since: since must be a version/],
      [`since=${'9'.repeat(40)}`, /^since: since must be a version/],
      ['since=%00', /^since: since must be a version/],
      ['after=abc', /^after: after needs limit/],
      ['limit=5&after=abc', /^after: after must be the next_cursor of the page before$/],
      ['limit=5&after=%00', /^after: after must be the next_cursor/],
      [`limit=5&after=${'a'.repeat(10_000)}`, /^after: /],
      // A cursor of the right shape at a time the database cannot hold (before 4713 BC), and one before 1970.
      [`limit=5&after=${cursorAt('-999999999999999999')}`, /^after: after must be the next_cursor/],
      [`limit=5&after=${cursorAt('-1')}`, /^after: after must be the next_cursor/],
      ['page=2', /nrecognized key/],
      ['since=1&since=2', /^since: /],
    ];
    for (const [query, message] of cases) {
      const res = await user.request('GET', `/v1/tickets?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(String(res.body.message), query).toMatch(message);
    }
  });
});
