import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type {
  Account,
  AccountTicket,
  AdminAccount,
  AdminTicket,
  AuditEntry,
  DistributeResponse,
  Ticket,
  User,
} from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { linkWalletWith, passes, type SimControl, simControl, startSim } from '../../testing/wallet-fixture.js';
import { CreditsCommandMessage } from '../credits/credits.command.js';
import { SettleDistributionJob } from './settle-distribution.job.js';

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

describe('distributing tickets as links, and recalling them', () => {
  let sim: WalletSimApp;
  let control: SimControl;
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  let user: ApiClient;
  let other: ApiClient;
  let userId: string;
  let otherId: string;
  let tickets: Ticket[];
  let othersTicket: Ticket;
  let duplicate: Ticket;

  const setCredits = async (id: string, credits: number) => {
    const res = await admin.request('PUT', `/v1/admin/users/${id}/credits`, { credits, reason: 'Test' });
    expect(res.status).toBe(200);
  };
  const balanceOf = async (client: ApiClient) =>
    ((await client.request('GET', '/v1/me')).body as unknown as User).balance;
  const myTickets = async (client = user) => (await client.request('GET', '/v1/tickets')).body.tickets as Ticket[];
  const distribute = (client: ApiClient, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    client.request('POST', '/v1/tickets/distribute', body, { headers });
  /** A user's audit log as the admin reads it, once its projection has taken every event written so far. */
  const audits = async (id: string, query = '') => {
    await subscriptionsCaughtUp(stack.app);
    return (await admin.request('GET', `/v1/admin/users/${id}/audits${query}`)).body.audits as AuditEntry[];
  };
  /** A fresh ticket of the user's, never distributed. */
  let next = 0;
  const fresh = () => tickets[next++]!;

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    control = simControl(url);
    stack = await startTestStack({
      env: { WALLET_PROVIDER_URL: url, WALLET_SYNC_FOLLOW_UPS_MS: '', WALLET_SYNC_EVERY_MS: '600000' },
    });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    other = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
    otherId = ((await other.login('admin@seatlink.test', 'Admin123!')).body.user as User).id;
    const shared = passes('shared', 1)[0]!;
    ({ tickets } = await linkWalletWith(user, control, 'mine@wallet.test', [...passes('mine', 140), shared]));
    // The shared pass came to the user first: the other account's copy is the duplicate.
    await subscriptionsCaughtUp(stack.app);
    const theirs = await linkWalletWith(other, control, 'theirs@wallet.test', [...passes('theirs', 2), shared]);
    for (let i = 0; i < 300 && !(await myTickets(other)).some((t) => t.is_duplicate); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    duplicate = (await myTickets(other)).find((t) => t.is_duplicate)!;
    othersTicket = theirs.tickets.find((t) => t.id !== duplicate.id)!;
    tickets = tickets.filter((t) => !t.is_duplicate && t.seat.seat !== null).sort((a, b) => a.id.localeCompare(b.id));
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('gives a ticket a link for 5 credits, shows it on the ticket, and logs it with the caller’s IP', async () => {
    await setCredits(userId, 50);
    const ticket = fresh();
    const expiry = inHours(2);
    const res = await distribute(user, { ticket_ids: [ticket.id], expiry_date: expiry, max_clicks: 10 });
    expect(res.status).toBe(200);
    const body = res.body as unknown as DistributeResponse;
    expect(body.failed).toEqual([]);
    expect(body.balance).toBe(45);
    expect(body.distributions).toHaveLength(1);
    const [made] = body.distributions;
    expect(made!.ticket_id).toBe(ticket.id);
    expect(made!.link).toMatch(/^http:\/\/localhost:3000\/l\/[A-Za-z0-9_-]{22}$/);
    expect(await balanceOf(user)).toBe(45);
    const shown = (await myTickets()).find((t) => t.id === ticket.id)!;
    expect(shown.is_distributed).toBe(true);
    expect(shown.distribution).toEqual({
      distribution_id: made!.distribution_id,
      id: made!.distribution_id,
      link: made!.link,
      clicks: 0,
      max_clicks: 10,
      expiry: new Date(expiry).toISOString(),
      label: null,
      has_pin: false,
      pin_locked: false,
      claimed_by: null,
      recipient: null,
    });
    const [entry] = await audits(userId, `?ticket_id=${ticket.id}`);
    expect(entry).toMatchObject({
      event_type: 'DISTRIBUTE',
      event_data: { status: 'SUCCESS', ticket_id: ticket.id, distribution_id: made!.distribution_id },
      metadata: { ip_address: '127.0.0.1', bulk_action: false },
    });
  });

  it('distributes many tickets in one request, unlimited and without expiry, each logged as a bulk action', async () => {
    await setCredits(userId, 100);
    const batch = [fresh(), fresh(), fresh()];
    const res = await distribute(user, { ticket_ids: batch.map((t) => t.id), expiry_date: null, max_clicks: null });
    expect(res.status).toBe(200);
    const body = res.body as unknown as DistributeResponse;
    expect(body.distributions.map((d) => d.ticket_id).sort()).toEqual(batch.map((t) => t.id).sort());
    expect(body.balance).toBe(85);
    const shown = (await myTickets()).filter((t) => batch.some((b) => b.id === t.id));
    expect(shown.every((t) => t.distribution?.max_clicks === null && t.distribution.expiry === null)).toBe(true);
    const logged = await audits(userId, `?ticket_id=${batch[0]!.id}`);
    expect(logged[0]!.metadata.bulk_action).toBe(true);
  });

  it('refuses what cannot be distributed, with a clear 4xx, charging nothing and logging each refusal', async () => {
    await setCredits(userId, 100);
    const [already] = (await myTickets()).filter((t) => t.is_distributed);
    const cases: Array<[string, string[], number, string]> = [
      ['already distributed', [already!.id], 409, 'ALREADY_DISTRIBUTED'],
      ['another user’s ticket', [othersTicket.id], 404, 'TICKET_NOT_FOUND'],
      ['an unknown ticket', [randomUUID()], 404, 'TICKET_NOT_FOUND'],
    ];
    for (const [label, ids, status, code] of cases) {
      const res = await distribute(user, { ticket_ids: ids });
      expect(res.status, label).toBe(status);
      expect(res.body.code, label).toBe(code);
      expect(res.body.failed, label).toEqual([{ ticket_id: ids[0], code, message: res.body.message }]);
    }
    const dup = await distribute(other, { ticket_ids: [duplicate.id] });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'DUPLICATE_TICKET', message: 'Cannot distribute duplicate tickets' });
    expect(await balanceOf(user)).toBe(100);
    const failed = await audits(userId, '?status=FAILED&event_type=DISTRIBUTE');
    expect(failed.map((a) => a.event_data.code)).toEqual(
      expect.arrayContaining(['ALREADY_DISTRIBUTED', 'TICKET_NOT_FOUND']),
    );
  });

  it('refuses the whole request when the balance does not cover it, saying what it needs', async () => {
    await setCredits(userId, 9);
    const two = [fresh(), fresh()];
    const res = await distribute(user, { ticket_ids: two.map((t) => t.id) });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_CREDITS', balance: 9 });
    expect(res.body.message).toMatch(/needs 10 credits and the balance is 9/);
    expect(await balanceOf(user)).toBe(9);
    expect((await myTickets()).filter((t) => two.some((x) => x.id === t.id && t.is_distributed))).toEqual([]);
    next -= 2; // unused: the next tests may take them
  });

  it('gives the links of a mixed request and lists the rest as failed (200)', async () => {
    await setCredits(userId, 100);
    const good = fresh();
    const [already] = (await myTickets()).filter((t) => t.is_distributed);
    const res = await distribute(user, { ticket_ids: [good.id, already!.id, duplicate.id] });
    expect(res.status).toBe(200);
    const body = res.body as unknown as DistributeResponse;
    expect(body.distributions.map((d) => d.ticket_id)).toEqual([good.id]);
    expect(body.failed.map((f) => [f.ticket_id, f.code])).toEqual([
      [already!.id, 'ALREADY_DISTRIBUTED'],
      [duplicate.id, 'TICKET_NOT_FOUND'],
    ]);
    expect(body.balance).toBe(95);
  });

  it.each([
    ['no tickets', { ticket_ids: [] }, 'No valid tickets selected to distribute'],
    ['not a list', { ticket_ids: 'abc' }, 'No valid tickets selected to distribute'],
    ['a ticket id that is no UUID', { ticket_ids: ['t1'] }, 'Each ticket id must be a UUID'],
    ['a NUL in an id', { ticket_ids: ['\u0000'] }, 'Each ticket id must be a UUID'],
    [
      'the same ticket twice',
      { ticket_ids: ['5f0c0e4e-5a54-4e55-9f4b-1c9a1b2c3d4e', '5f0c0e4e-5a54-4e55-9f4b-1c9a1b2c3d4e'] },
      'A ticket is listed twice',
    ],
    [
      'an expiry within the hour',
      { ticket_ids: [randomUUID()], expiry_date: inHours(0.5) },
      'Link expiry must be at least one hour from now',
    ],
    [
      'an expiry in the past',
      { ticket_ids: [randomUUID()], expiry_date: '2020-01-01T00:00:00Z' },
      'Link expiry must be at least one hour from now',
    ],
    [
      'an expiry far away',
      { ticket_ids: [randomUUID()], expiry_date: '9999-12-31T23:59:59Z' },
      'Link expiry must be within five years',
    ],
    [
      'an expiry that is no date',
      { ticket_ids: [randomUUID()], expiry_date: 'tomorrow' },
      'Link expiry must be a date and time',
    ],
    ['max clicks 0', { ticket_ids: [randomUUID()], max_clicks: 0 }, 'Max clicks must be a whole number'],
    ['max clicks 1.5', { ticket_ids: [randomUUID()], max_clicks: 1.5 }, 'Max clicks must be a whole number'],
    ['max clicks as text', { ticket_ids: [randomUUID()], max_clicks: '10' }, 'Max clicks must be a whole number'],
    ['max clicks huge', { ticket_ids: [randomUUID()], max_clicks: 1e12 }, 'Max clicks must be a whole number'],
    ['1001 tickets', { ticket_ids: Array.from({ length: 1001 }, () => randomUUID()) }, 'At most 1000 tickets at once'],
    [
      'a misspelt setting',
      { ticket_ids: [randomUUID()], expires_at: '2099-01-01T00:00:00Z' },
      'Unknown field: expires_at',
    ],
  ])('answers 400 for %s, and writes nothing', async (_label, body, message) => {
    await setCredits(userId, 100);
    const before = (await audits(userId, '?limit=500')).length;
    const res = await distribute(user, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(await balanceOf(user)).toBe(100);
    expect((await audits(userId, '?limit=500')).length).toBe(before);
  });

  it('answers a repeated request (the same Idempotency-Key) with the same links, charged once', async () => {
    await setCredits(userId, 100);
    const ticket = fresh();
    const key = randomUUID();
    const first = await distribute(user, { ticket_ids: [ticket.id] }, { 'idempotency-key': key });
    const again = await distribute(user, { ticket_ids: [ticket.id] }, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect((again.body as unknown as DistributeResponse).distributions).toEqual(
      (first.body as unknown as DistributeResponse).distributions,
    );
    expect(await balanceOf(user)).toBe(95);
  });

  it('never spends below zero: 100 requests at once on a balance of 250 make exactly 50 links', async () => {
    await setCredits(userId, 250);
    const batch = Array.from({ length: 100 }, () => fresh());
    const results = await Promise.all(batch.map((t) => distribute(user, { ticket_ids: [t.id] })));
    const made = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(made).toHaveLength(50);
    expect(refused.every((r) => r.status === 402 && r.body.code === 'INSUFFICIENT_CREDITS')).toBe(true);
    expect(await balanceOf(user)).toBe(0);
    const live = (await myTickets()).filter((t) => batch.some((b) => b.id === t.id) && t.is_distributed);
    expect(live).toHaveLength(50);
    // In the credit stream since the balance was set: debits less refunds are exactly links × cost.
    const [net] = await database.query<{ amount: number }>(
      `select coalesce(sum(case type when 'CreditsDebited' then (data->>'amount')::int
                                     else -(data->>'amount')::int end), 0)::int as amount
       from events
       where stream_id = $1 and type in ('CreditsDebited', 'CreditsRefunded')
         and stream_position > (select max(stream_position) from events where stream_id = $1 and type = 'CreditsSet')`,
      [`credits-${userId}`],
    );
    expect(net!.amount).toBe(50 * 5);
  }, 60_000);

  it('makes one link of one ticket asked for by 20 requests at once, and gives back what the others paid', async () => {
    await setCredits(userId, 100);
    const ticket = fresh();
    const results = await Promise.all(Array.from({ length: 20 }, () => distribute(user, { ticket_ids: [ticket.id] })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    // Every other request is refused because the ticket has its link (not because paying back failed or ran out of
    // tries: that would leave the refund to the settle job).
    expect(results.filter((r) => r.status !== 200).map((r) => `${r.status} ${String(r.body.code)}`)).toEqual(
      Array.from({ length: 19 }, () => '409 ALREADY_DISTRIBUTED'),
    );
    // Each refusal answers once what it paid back reads back, as a link's answer does.
    expect(results.every((r) => r.body.pending === undefined)).toBe(true);
    expect(await balanceOf(user)).toBe(95);
  });

  it('makes one link of each ticket that three bulk requests ask for at once, and charges only for those', async () => {
    await setCredits(userId, 1000);
    const batch = Array.from({ length: 8 }, () => fresh());
    // The same tickets in three requests (their links are appended many in one statement: a ticket that another
    // request took in between makes its statement fall back to one ticket at a time).
    const results = await Promise.all(
      [batch, [...batch].reverse(), batch.slice(2)].map((some) =>
        distribute(user, { ticket_ids: some.map((t) => t.id) }),
      ),
    );
    const made = results.flatMap((r) =>
      r.status === 200 ? (r.body as unknown as DistributeResponse).distributions.map((d) => d.ticket_id) : [],
    );
    expect(made.sort()).toEqual(batch.map((t) => t.id).sort());
    const failed = results.flatMap((r) => (r.body as unknown as { failed: Array<{ code: string }> }).failed);
    expect(failed.every((f) => f.code === 'ALREADY_DISTRIBUTED')).toBe(true);
    // What the requests that lost a ticket paid for it came back, and reads back as soon as they answer (a request
    // that lost every ticket too).
    expect(results.every((r) => r.body.pending === undefined)).toBe(true);
    expect(await balanceOf(user)).toBe(1000 - 8 * 5);
    const live = (await myTickets()).filter((t) => batch.some((b) => b.id === t.id) && t.is_distributed);
    expect(live).toHaveLength(8);
  });

  it('recalls a link: it stops at once, the ticket can be distributed again, a second recall is refused', async () => {
    await setCredits(userId, 100);
    const ticket = fresh();
    const made = (await distribute(user, { ticket_ids: [ticket.id] })).body as unknown as DistributeResponse;
    const { distribution_id: id, link } = made.distributions[0]!;
    const code = link.split('/l/')[1]!;
    // docs/reference.md "API calls": no body, as clients send it, with a JSON content type and nothing after it.
    const recalled = await user.request('POST', `/v1/distributions/${id}/recall`, undefined, {
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(recalled.status).toBe(200);
    expect(recalled.body).toMatchObject({ message: 'Ticket recalled', distribution_id: id, ticket_id: ticket.id });
    const claim = await fetch(`${stack.baseUrl}/v1/links/${code}/claim`, {
      method: 'POST',
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' },
    });
    expect(claim.status).toBe(410);
    expect(await claim.json()).toMatchObject({ code: 'LINK_RECALLED' });
    expect((await myTickets()).find((t) => t.id === ticket.id)).toMatchObject({
      is_distributed: false,
      distribution: null,
    });
    const again = await user.request('POST', `/v1/distributions/${id}/recall`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ALREADY_RECALLED');
    const redistributed = await distribute(user, { ticket_ids: [ticket.id] });
    expect(redistributed.status).toBe(200);
    expect(await balanceOf(user)).toBe(90);
    const recalls = await audits(userId, `?event_type=TICKET_RECALLED&distribution_id=${id}`);
    expect(recalls.map((a) => a.event_data.status).sort()).toEqual(['FAILED', 'SUCCESS']);
  });

  it('refuses to recall another user’s link or an unknown one (404), and a malformed id (400)', async () => {
    await setCredits(userId, 100);
    const made = (await distribute(user, { ticket_ids: [fresh().id] })).body as unknown as DistributeResponse;
    const id = made.distributions[0]!.distribution_id;
    expect((await other.request('POST', `/v1/distributions/${id}/recall`)).status).toBe(404);
    expect((await user.request('POST', `/v1/distributions/${randomUUID()}/recall`)).status).toBe(404);
    const bad = await user.request('POST', '/v1/distributions/not-an-id/recall');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Distribution id must be a UUID');
    expect((await myTickets()).find((t) => t.distribution?.id === id)?.is_distributed).toBe(true);
    const refused = await audits(otherId, `?event_type=TICKET_RECALLED&status=FAILED`);
    expect(refused.some((a) => a.event_data.distribution_id === id)).toBe(true);
    // Once recalled, it is still not theirs to know of: 404 to them, as an unknown link; 409 to its owner.
    expect((await user.request('POST', `/v1/distributions/${id}/recall`)).status).toBe(200);
    const theirs = await other.request('POST', `/v1/distributions/${id}/recall`);
    expect([theirs.status, theirs.body.code]).toEqual([404, 'DISTRIBUTION_NOT_FOUND']);
    const edit = await other.request('PATCH', `/v1/distributions/${id}`, { label: 'x' });
    expect([edit.status, edit.body.code]).toEqual([404, 'DISTRIBUTION_NOT_FOUND']);
    expect((await user.request('POST', `/v1/distributions/${id}/recall`)).body.code).toBe('ALREADY_RECALLED');
  });

  it('gives back, later, what a debit paid for and no link was made of (a crash between the two)', async () => {
    await setCredits(userId, 100);
    const ticket = fresh();
    const commandId = randomUUID();
    const distributionId = randomUUID();
    await stack.app.get(CommandBus).execute(
      new CreditsCommandMessage(
        {
          type: 'DebitCredits',
          data: {
            userId,
            cost: 5,
            reference: commandId,
            distributionIds: [distributionId],
            now: new Date().toISOString(),
          },
        },
        { actorId: userId, commandId: `debit:${commandId}` },
      ),
    );
    await expect.poll(() => balanceOf(user), { timeout: 20_000 }).toBe(95);
    // A settle job queued by an earlier version, run twice (at least once delivery).
    const job = stack.app.get(SettleDistributionJob);
    const data = { userId, commandId, cost: 5, links: [{ ticketId: ticket.id, distributionId }] };
    await job.run(data);
    await job.run(data);
    await expect.poll(() => balanceOf(user), { timeout: 20_000 }).toBe(100);
    // The link can never be made now: its ticket's stream holds its voiding; the ticket itself is free.
    const made = await distribute(user, { ticket_ids: [ticket.id] });
    expect(made.status).toBe(200);
    expect(await balanceOf(user)).toBe(95);
    await expect
      .poll(async () =>
        (await audits(userId, `?status=FAILED&distribution_id=${distributionId}`)).map((a) => a.event_data.code),
      )
      .toEqual(['LINK_NOT_MADE']);
  });

  it('shows the same live links in every list: the tickets, the accounts and their tickets, and the admins’', async () => {
    await setCredits(userId, 100);
    const made = (await distribute(user, { ticket_ids: [fresh().id, fresh().id, fresh().id] })).body
      .distributions as DistributeResponse['distributions'];
    expect((await user.request('POST', `/v1/distributions/${made[0]!.distribution_id}/recall`)).status).toBe(200);
    const code = made[1]!.link.split('/l/')[1]!;
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' };
    for (let i = 0; i < 2; i++) {
      expect(
        (await fetch(`${stack.baseUrl}/v1/links/${code}/claim`, { method: 'POST', headers: browser })).status,
      ).toBe(200);
    }
    await subscriptionsCaughtUp(stack.app);
    // The live links of the user's tickets, as the links read model holds them.
    const live = await database.query<{ ticket_id: string; distribution_id: string; clicks: number }>(
      `select l.ticket_id, l.distribution_id, l.clicks from links l join tickets t on t.id = l.ticket_id
       where t.user_id = $1 and l.recalled_at is null order by l.ticket_id`,
      [userId],
    );
    expect(live.length).toBeGreaterThanOrEqual(2);
    expect(live.find((l) => l.distribution_id === made[1]!.distribution_id)?.clicks).toBe(2);
    expect(live.some((l) => l.distribution_id === made[0]!.distribution_id)).toBe(false);
    const mine = await myTickets();
    const shown = mine.filter((t) => t.is_distributed).sort((a, b) => a.id.localeCompare(b.id));
    expect(shown.map((t) => [t.id, t.distribution?.id, t.distribution?.clicks])).toEqual(
      live.map((l) => [l.ticket_id, l.distribution_id, l.clicks]),
    );
    expect(mine.every((t) => t.is_distributed === (t.distribution !== null))).toBe(true);

    const distributedIn = (accountId: string) => shown.filter((t) => t.account_id === accountId).length;
    const accounts = (await user.request('GET', '/v1/accounts')).body.accounts as Account[];
    expect(accounts.map((a) => a.distributed_count)).toEqual(accounts.map((a) => distributedIn(a.id)));
    for (const account of accounts) {
      const res = await user.request('GET', `/v1/accounts/${account.id}/tickets`);
      expect((res.body.account as Account).distributed_count).toBe(distributedIn(account.id));
      const listed = res.body.tickets as AccountTicket[];
      expect(listed.filter((t) => t.is_distributed).map((t) => t.id)).toEqual(
        mine.filter((t) => t.account_id === account.id && t.is_distributed).map((t) => t.id),
      );
    }

    const adminTickets = (await admin.request('GET', '/v1/admin/tickets')).body.tickets as AdminTicket[];
    const ofUser = adminTickets.filter((t) => t.user.id === userId);
    expect(ofUser.map(({ user: _user, ...ticket }) => ticket)).toEqual(mine);
    const adminAccounts = (await admin.request('GET', '/v1/admin/accounts')).body.accounts as AdminAccount[];
    for (const account of accounts) {
      const seen = adminAccounts.find((a) => a.id === account.id)!;
      expect(seen.distributed_count).toBe(distributedIn(account.id));
      expect(seen.tickets.filter((t) => t.is_distributed).length).toBe(distributedIn(account.id));
    }
  });

  it('needs a session for distributing and recalling', async () => {
    const anonymous = new ApiClient(stack.baseUrl);
    expect((await distribute(anonymous, { ticket_ids: [fresh().id] })).status).toBe(401);
    expect((await anonymous.request('POST', `/v1/distributions/${randomUUID()}/recall`)).status).toBe(401);
  });
});
