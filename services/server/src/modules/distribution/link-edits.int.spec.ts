import type {
  AuditEntry,
  BulkRecallResponse,
  BulkUpdateResponse,
  DistributeResponse,
  PublicLink,
  Ticket,
  UpdateDistributionResponse,
  User,
} from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import { queryRows, type Database } from '../../infra/db/database.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
import { linkWalletWith, passes, simControl, startSim } from '../../testing/wallet-fixture.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { editLinkCounters, linkCountersReaction } from './link-counters.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const HOUR = 60 * 60 * 1000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

describe('editing a live link: its expiry, click limit and label, without recalling it or paying again', () => {
  let sim: WalletSimApp;
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  let user: ApiClient;
  let userId: string;
  let tickets: Ticket[];
  let next = 0;

  const claim = (code: string) =>
    fetch(`${stack.baseUrl}/v1/links/${code}/claim`, { method: 'POST', headers: { 'user-agent': BROWSER } });
  const makeLink = async (
    options: { max_clicks?: number | null; expiry_date?: string | null; label?: string } = {},
  ) => {
    const ticket = tickets[next++]!;
    const res = await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [ticket.id], ...options });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const made = (res.body as unknown as DistributeResponse).distributions[0]!;
    return { code: made.link.split('/l/')[1]!, distributionId: made.distribution_id, ticket };
  };
  const edit = (distributionId: string, body: unknown, client = user, headers: Record<string, string> = {}) =>
    client.request('PATCH', `/v1/distributions/${distributionId}`, body, { headers });
  const balance = async () => (await user.request('GET', '/v1/me')).body.balance as number;
  const ticketOf = async (ticketId: string) =>
    ((await user.request('GET', '/v1/tickets')).body.tickets as Ticket[]).find((t) => t.id === ticketId)!;
  const counter = async (distributionId: string) =>
    (
      await database.query<{ clicks: number; max_clicks: number | null; expires_at: Date | null }>(
        'select clicks, max_clicks, expires_at from link_counters where distribution_id = $1',
        [distributionId],
      )
    )[0]!;
  const edits = async (ticketId: string) =>
    database.query<{ n: number }>(
      `select count(*)::int as n from events where stream_id = $1 and type = 'LinkUpdated'`,
      [`ticket-distribution-${ticketId}`],
    );
  const audits = async () => {
    await subscriptionsCaughtUp(stack.app);
    const res = await admin.request('GET', `/v1/admin/users/${userId}/audits?event_type=LINK_UPDATED&limit=500`);
    expect(res.status).toBe(200);
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
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 10_000, reason: 'Test' });
    ({ tickets } = await linkWalletWith(user, simControl(url), 'edits@wallet.test', passes('edits', 45)));
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('changes expiry, limit and label at once, costs nothing, and every view shows it straight after the answer', async () => {
    const { distributionId, ticket, code } = await makeLink({ max_clicks: 5, label: '  for Sam  ' });
    expect((await ticketOf(ticket.id)).distribution).toMatchObject({ label: 'for Sam', max_clicks: 5, expiry: null });
    const credits = await balance();
    const expiry = inHours(48);
    const res = await edit(distributionId, { expiry_date: expiry, max_clicks: 12, label: 'for Alex 🎟️' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as unknown as UpdateDistributionResponse;
    expect(body).toMatchObject({
      message: 'Link updated',
      ticket_id: ticket.id,
      state: 'active',
      distribution: { id: distributionId, clicks: 0, max_clicks: 12, label: 'for Alex 🎟️' },
    });
    expect(Date.parse(body.distribution.expiry!)).toBe(Date.parse(expiry));
    expect(body.distribution.link).toContain(`/l/${code}`);
    expect(body.pending).toBeUndefined();
    // Read straight after the answer: no polling.
    expect((await ticketOf(ticket.id)).distribution).toMatchObject({ max_clicks: 12, label: 'for Alex 🎟️' });
    expect(await balance()).toBe(credits);
    expect((await counter(distributionId)).max_clicks).toBe(12);
    const view = (await (await fetch(`${stack.baseUrl}/v1/links/${code}`)).json()) as PublicLink;
    expect(Date.parse(view.expires_at!)).toBe(Date.parse(expiry));

    // Absent leaves as is; null removes.
    const cleared = await edit(distributionId, { expiry_date: null, label: null });
    expect(cleared.status).toBe(200);
    expect((cleared.body as unknown as UpdateDistributionResponse).distribution).toMatchObject({
      max_clicks: 12,
      expiry: null,
      label: null,
    });
    expect((await counter(distributionId)).expires_at).toBeNull();

    // The audit log says what changed, from what to what.
    const entries = (await audits()).filter((a) => a.event_data.distribution_id === distributionId);
    expect(entries.map((a) => a.event_data.status)).toEqual(['SUCCESS', 'SUCCESS']);
    expect(entries[1]!.event_data.changes).toEqual({
      expiry_date: { from: null, to: expiry },
      max_clicks: { from: 5, to: 12 },
      label: { from: 'for Sam', to: 'for Alex 🎟️' },
    });
    expect(entries[0]!.event_data.changes).toEqual({
      expiry_date: { from: expiry, to: null },
      label: { from: 'for Alex 🎟️', to: null },
    });
  });

  it('opens a link that reached its limit when the limit is raised, and an expired one when its expiry moves on', async () => {
    const full = await makeLink({ max_clicks: 2 });
    for (let i = 0; i < 2; i++) expect((await claim(full.code)).status).toBe(200);
    expect((await claim(full.code)).status).toBe(410);
    const raised = await edit(full.distributionId, { max_clicks: 3 });
    expect((raised.body as unknown as UpdateDistributionResponse).state).toBe('active');
    expect((await claim(full.code)).status).toBe(200);
    expect((await claim(full.code)).status).toBe(410);
    // Unlimited: open for good.
    expect((await edit(full.distributionId, { max_clicks: null })).status).toBe(200);
    expect((await claim(full.code)).status).toBe(200);

    const late = await makeLink({ expiry_date: inHours(2) });
    await database.query(
      `update link_counters set expires_at = now() - interval '1 second' where distribution_id = $1`,
      [late.distributionId],
    );
    expect((await claim(late.code)).status).toBe(410);
    const extended = await edit(late.distributionId, { expiry_date: inHours(24) });
    expect(extended.status).toBe(200);
    expect((extended.body as unknown as UpdateDistributionResponse).state).toBe('active');
    expect((await claim(late.code)).status).toBe(200);
  });

  it('refuses a limit below the clicks counted (409), and records the refusal; to the count exactly is allowed', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: 10 });
    for (let i = 0; i < 4; i++) expect((await claim(code)).status).toBe(200);
    const below = await edit(distributionId, { max_clicks: 3 });
    expect(below.status).toBe(409);
    expect(below.body).toMatchObject({
      code: 'LIMIT_BELOW_CLICKS',
      message: 'Max clicks cannot be lower than the 4 clicks already counted',
    });
    expect((await counter(distributionId)).max_clicks).toBe(10);
    const exact = await edit(distributionId, { max_clicks: 4 });
    expect((exact.body as unknown as UpdateDistributionResponse).state).toBe('limit_reached');
    expect((await claim(code)).status).toBe(410);
    const refused = (await audits()).filter(
      (a) => a.event_data.distribution_id === distributionId && a.event_data.status === 'FAILED',
    );
    expect(refused).toHaveLength(1);
    expect(refused[0]!.event_data).toMatchObject({ code: 'LIMIT_BELOW_CLICKS' });
  });

  it("refuses bad input with a 400 and a message, another user's or an unknown link with a 404, a recalled one with a 409", async () => {
    const { distributionId, ticket } = await makeLink({ max_clicks: 5, label: 'kept' });
    const bad: Array<[unknown, RegExp]> = [
      [{}, /Nothing to update/],
      [{ max_clicks: 'ten' }, /Max clicks must be a whole number/],
      [{ max_clicks: 0 }, /Max clicks must be a whole number/],
      [{ max_clicks: 2.5 }, /Max clicks must be a whole number/],
      [{ max_clicks: 1_000_001 }, /Max clicks must be a whole number/],
      [{ label: 'x'.repeat(81) }, /Label must be at most 80 characters/],
      [{ label: 'a\u0000b' }, /Label contains characters that are not allowed/],
      [{ label: 'Sam \u202Egnp.exe' }, /Label contains characters that are not allowed/],
      [{ label: 42 }, /Label must be text/],
      [{ expiry_date: inHours(0.5) }, /at least one hour from now/],
      [{ expiry_date: '+275760-09-13T00:00:00.000Z' }, /within five years|date and time/],
      [{ expiry_date: 'tomorrow' }, /date and time/],
      [{ pins: '1234' }, /Unknown field: pins/],
      [{ label: { a: { b: { c: {} } } } }, /Label must be text/],
      [[{ label: 'x' }], /./],
    ];
    for (const [body, message] of bad) {
      const res = await edit(distributionId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(body)).toMatch(message);
    }
    // 80 characters is fine, counted as characters (an emoji is one).
    expect((await edit(distributionId, { label: '🎟️'.repeat(1) + 'x'.repeat(78) })).status).toBe(200);
    // Deeply nested and huge bodies: refused before they reach anything.
    const deep = '{"label":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    const nested = await user.request('PATCH', `/v1/distributions/${distributionId}`, undefined, { raw: deep });
    expect(nested.status).toBeGreaterThanOrEqual(400);
    expect(nested.status).toBeLessThan(500);
    const huge = await user.request('PATCH', `/v1/distributions/${distributionId}`, undefined, {
      raw: JSON.stringify({ label: 'x'.repeat(5_000_000) }),
    });
    expect([400, 413]).toContain(huge.status);
    expect((await edit('not-a-uuid', { label: 'x' })).status).toBe(400);

    const unknown = await edit('00000000-0000-4000-8000-000000000000', { label: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'DISTRIBUTION_NOT_FOUND' });
    const stranger = new ApiClient(stack.baseUrl);
    const login = await createVerifiedUser(stack.app);
    await stranger.login(login.email, login.password);
    const theirs = await edit(distributionId, { max_clicks: 1_000 }, stranger);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ code: 'DISTRIBUTION_NOT_FOUND' });
    expect(
      (await new ApiClient(stack.baseUrl).request('PATCH', `/v1/distributions/${distributionId}`, {})).status,
    ).toBe(401);

    expect((await user.request('POST', `/v1/distributions/${distributionId}/recall`)).status).toBe(200);
    const recalled = await edit(distributionId, { max_clicks: 50 });
    expect(recalled.status).toBe(409);
    expect(recalled.body).toMatchObject({ code: 'ALREADY_RECALLED' });
    // Nothing of all that changed the link.
    const row = (
      await database.query<{ label: string; max_clicks: number }>(
        'select label, max_clicks from links where distribution_id = $1',
        [distributionId],
      )
    )[0]!;
    expect(row).toEqual({ label: '🎟️' + 'x'.repeat(78), max_clicks: 5 });
    expect((await ticketOf(ticket.id)).distribution).toBeNull();
  });

  it('answers a retried edit (its Idempotency-Key) as the first time, records it once, and never undoes a later edit', async () => {
    const { distributionId, ticket } = await makeLink({ max_clicks: 5 });
    const key = { 'idempotency-key': `edit-${distributionId}` };
    const first = await edit(distributionId, { max_clicks: 8 }, user, key);
    expect(first.status).toBe(200);
    expect((await edit(distributionId, { max_clicks: 20 })).status).toBe(200);
    const again = await edit(distributionId, { max_clicks: 8 }, user, key);
    expect(again.status).toBe(200);
    // The first answer again (as every call with an Idempotency-Key answers its retry), and nothing done twice.
    expect(again.body).toEqual(first.body);
    expect((await counter(distributionId)).max_clicks).toBe(20);
    expect((await edits(ticket.id))[0]!.n).toBe(2);
    // The same settings again are no edit at all.
    expect((await edit(distributionId, { max_clicks: 20 })).status).toBe(200);
    expect((await edits(ticket.id))[0]!.n).toBe(2);
  });

  it('holds exactly to the limit in force while 200 claimers come and the limit is raised, then lowered', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: 50 });
    const claims = Array.from({ length: 200 }, () => claim(code));
    const raise = (async () => {
      await new Promise((r) => setTimeout(r, 5));
      return edit(distributionId, { max_clicks: 120 });
    })();
    const [answers, raised] = await Promise.all([Promise.all(claims), raise]);
    expect(raised.status).toBe(200);
    const ok = answers.filter((r) => r.status === 200).length;
    expect(answers.every((r) => r.status === 200 || r.status === 410)).toBe(true);
    const after = await counter(distributionId);
    expect(after.clicks).toBe(ok);
    expect(ok).toBeGreaterThanOrEqual(50);
    expect(ok).toBeLessThanOrEqual(120);

    // Lowered while claims come: either the edit came first (then nothing is counted past it), or it came after more
    // clicks than it allows and was refused (then the old limit still holds).
    const target = after.clicks + 10;
    const more = Array.from({ length: 200 }, () => claim(code));
    const lower = (async () => {
      await new Promise((r) => setTimeout(r, 5));
      return edit(distributionId, { max_clicks: target });
    })();
    const [answers2, lowered] = await Promise.all([Promise.all(more), lower]);
    const ok2 = answers2.filter((r) => r.status === 200).length;
    const final = await counter(distributionId);
    expect(final.clicks).toBe(after.clicks + ok2);
    if (lowered.status === 200) {
      expect(final.max_clicks).toBe(target);
      expect(final.clicks).toBeLessThanOrEqual(target);
    } else {
      expect(lowered.status).toBe(409);
      expect(lowered.body).toMatchObject({ code: 'LIMIT_BELOW_CLICKS' });
      expect(final.max_clicks).toBe(120);
      expect(final.clicks).toBeLessThanOrEqual(120);
    }
    // Every counted click is one event, none twice.
    const [recorded] = await database.query<{ n: number; distinct_n: number }>(
      `select count(*)::int as n, count(distinct (data->>'n'))::int as distinct_n from events where stream_id = $1`,
      [`link-clicks-${distributionId}`],
    );
    expect(recorded).toEqual({ n: final.clicks, distinct_n: final.clicks });
  }, 60_000);

  it('takes twenty edits of one link at once one after another: the last one stands everywhere', async () => {
    const { distributionId, ticket } = await makeLink({ max_clicks: 5 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => edit(distributionId, { max_clicks: 100 + i, label: `take ${i}` })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect((await edits(ticket.id))[0]!.n).toBe(20);
    // The stream's last edit is what the counter, the read model and the ticket list hold.
    const [last] = await database.query<{ max_clicks: number; label: string }>(
      `select (data->'settings'->>'maxClicks')::int as max_clicks, data->'settings'->>'label' as label
       from events where stream_id = $1 and type = 'LinkUpdated' order by stream_position desc limit 1`,
      [`ticket-distribution-${ticket.id}`],
    );
    expect((await counter(distributionId)).max_clicks).toBe(last!.max_clicks);
    expect((await ticketOf(ticket.id)).distribution).toMatchObject({
      max_clicks: last!.max_clicks,
      label: last!.label,
    });
  });

  it('writes an edit to a counter only over an older one: applied again or out of order, a later edit stands', async () => {
    const { distributionId } = await makeLink({ max_clicks: 5 });
    expect((await edit(distributionId, { max_clicks: 30 })).status).toBe(200);
    // The reaction applying the first edit (revision 1) again, and one older still: the counter keeps revision 1's.
    const older = { distributionId, revision: 0, settings: { expiresAt: null, maxClicks: 2 } };
    await editLinkCounters(database.db, [older]);
    expect((await counter(distributionId)).max_clicks).toBe(30);
    await editLinkCounters(database.db, [{ ...older, revision: 1, settings: { expiresAt: null, maxClicks: 30 } }]);
    expect((await counter(distributionId)).max_clicks).toBe(30);
  });

  it('puts an edit on its counter from the event alone, should its request have died before writing it there', async () => {
    const { distributionId, ticket } = await makeLink({ max_clicks: 5 });
    expect((await edit(distributionId, { max_clicks: 9, expiry_date: inHours(30) })).status).toBe(200);
    // As if the request had died between its append and its write of the counter (only possible where the event
    // store is not this database): the counter still has the link as made.
    await database.query(
      'update link_counters set max_clicks = 5, expires_at = null, settings_revision = -1 where distribution_id = $1',
      [distributionId],
    );
    const { events } = await stack.app.get<EventStore>(EVENT_STORE).readStream(`ticket-distribution-${ticket.id}`);
    await database.db.transaction((tx) =>
      linkCountersReaction.apply(events, { tx, store: null as never, push: () => {}, afterCommit: () => {} }),
    );
    const row = await counter(distributionId);
    expect(row.max_clicks).toBe(9);
    expect(row.expires_at).not.toBeNull();
  });

  it('keeps edits through a rebuild of the read models, and in the admins’ history at a moment', async () => {
    const { distributionId, ticket } = await makeLink({ max_clicks: 5, label: 'first' });
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    expect((await edit(distributionId, { max_clicks: 40, label: 'second' })).status).toBe(200);
    await subscriptionsCaughtUp(stack.app);
    const dump = () =>
      queryRows(database.db, sql`select to_jsonb(l) - 'version' as row from links l order by distribution_id`);
    const live = await dump();
    await stack.app.get(SubscriptionOperations).reset(['links']);
    await subscriptionsCaughtUp(stack.app);
    expect(await dump()).toEqual(live);
    expect((await ticketOf(ticket.id)).distribution).toMatchObject({ max_clicks: 40, label: 'second' });

    const at = async (moment: string) => {
      const res = await admin.request('GET', `/v1/admin/users/${userId}/history?at=${encodeURIComponent(moment)}`);
      expect(res.status).toBe(200);
      return (res.body.tickets as Array<{ ticket_id: string; distribution: Record<string, unknown> | null }>).find(
        (t) => t.ticket_id === ticket.id,
      )!.distribution;
    };
    expect(await at(before)).toMatchObject({ max_clicks: 5, label: 'first' });
    expect(await at(new Date().toISOString())).toMatchObject({ max_clicks: 40, label: 'second' });
  });

  describe('many links at once', () => {
    const bulkRecall = (ids: unknown, headers: Record<string, string> = {}) =>
      user.request('POST', '/v1/distributions/recall', { distribution_ids: ids }, { headers });
    const bulkEdit = (body: unknown) => user.request('PATCH', '/v1/distributions', body);
    const recallEvents = async (ticketId: string) =>
      (
        await database.query<{ n: number }>(
          `select count(*)::int as n from events where stream_id = $1 and type = 'TicketRecalled'`,
          [`ticket-distribution-${ticketId}`],
        )
      )[0]!.n;

    it('recalls the caller’s links and lists the others with why; each is its own bulk audit entry', async () => {
      const mine = [await makeLink(), await makeLink(), await makeLink()];
      const gone = await makeLink();
      expect((await user.request('POST', `/v1/distributions/${gone.distributionId}/recall`)).status).toBe(200);
      const stranger = new ApiClient(stack.baseUrl);
      const login = await createVerifiedUser(stack.app);
      await stranger.login(login.email, login.password);
      const unknown = '00000000-0000-4000-8000-000000000001';
      const credits = await balance();

      const res = await bulkRecall([...mine.map((l) => l.distributionId), gone.distributionId, unknown]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = res.body as unknown as BulkRecallResponse;
      expect(body.message).toBe('3 links recalled');
      expect(body.recalled).toEqual(mine.map((l) => ({ distribution_id: l.distributionId, ticket_id: l.ticket.id })));
      expect(body.failed).toEqual([
        { distribution_id: gone.distributionId, code: 'ALREADY_RECALLED', message: 'This link was already recalled' },
        { distribution_id: unknown, code: 'DISTRIBUTION_NOT_FOUND', message: 'Distribution not found' },
      ]);
      // Straight after the answer: the links are off their tickets, claims are refused, nothing was paid back.
      for (const link of mine) {
        expect((await ticketOf(link.ticket.id)).distribution).toBeNull();
        expect((await claim(link.code)).status).toBe(410);
      }
      expect(await balance()).toBe(credits);
      const entries = (
        await admin.request('GET', `/v1/admin/users/${userId}/audits?event_type=TICKET_RECALLED&limit=500`)
      ).body.audits as AuditEntry[];
      for (const link of mine) {
        const entry = entries.find((a) => a.event_data.distribution_id === link.distributionId)!;
        expect(entry.metadata.bulk_action).toBe(true);
        expect(entry.event_data.status).toBe('SUCCESS');
      }
      expect(entries.some((a) => a.event_data.distribution_id === unknown && a.event_data.status === 'FAILED')).toBe(
        true,
      );

      // None of them the caller's: the refusal itself (404), with the list.
      const none = await bulkRecall([unknown]);
      expect(none.status).toBe(404);
      expect(none.body).toMatchObject({ code: 'DISTRIBUTION_NOT_FOUND', failed: [{ distribution_id: unknown }] });
      const theirs = await stranger.request('POST', '/v1/distributions/recall', {
        distribution_ids: [mine[0]!.distributionId],
      });
      // Recalled, and not theirs: not found to them, as an unknown one.
      expect(theirs.status).toBe(404);
      expect(theirs.body).toMatchObject({ code: 'DISTRIBUTION_NOT_FOUND' });
    });

    it('refuses bad lists with a 400 and a message, and changes nothing', async () => {
      const link = await makeLink();
      const bad: Array<[unknown, RegExp]> = [
        [[], /No links selected/],
        ['not-a-list', /No links selected/],
        [[link.distributionId, link.distributionId], /listed twice/],
        [['nope'], /must be a UUID/],
        [
          Array.from({ length: 1001 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`),
          /At most 1000/,
        ],
        [['\u0000'], /must be a UUID/],
      ];
      for (const [ids, message] of bad) {
        const res = await bulkRecall(ids);
        expect(res.status, JSON.stringify(ids).slice(0, 80)).toBe(400);
        expect(JSON.stringify(res.body)).toMatch(message);
      }
      const extra = await user.request('POST', '/v1/distributions/recall', {
        distribution_ids: [link.distributionId],
        all: true,
      });
      expect(extra.status).toBe(400);
      expect(JSON.stringify(extra.body)).toMatch(/Unknown field: all/);
      expect((await bulkEdit({ distribution_ids: [link.distributionId] })).status).toBe(400);
      expect((await ticketOf(link.ticket.id)).distribution).not.toBeNull();
    });

    it('recalls each link once when two bulk recalls of the same links race, and a retry with its key repeats nothing', async () => {
      const links = await Promise.all(Array.from({ length: 6 }, () => makeLink()));
      const ids = links.map((l) => l.distributionId);
      const [a, b] = await Promise.all([bulkRecall(ids), bulkRecall([...ids].reverse())]);
      const recalled = [a, b].flatMap((r) =>
        r.status === 200 ? (r.body as unknown as BulkRecallResponse).recalled.map((x) => x.distribution_id) : [],
      );
      // Every link recalled by exactly one of the two; the other was told it already was.
      expect([...recalled].sort()).toEqual([...ids].sort());
      const failed = [a, b].flatMap((r) => (r.body as unknown as BulkRecallResponse).failed);
      expect(failed.map((f) => f.code)).toEqual(Array(6).fill('ALREADY_RECALLED'));
      for (const link of links) expect(await recallEvents(link.ticket.id)).toBe(1);

      const more = [await makeLink(), await makeLink()];
      const key = { 'idempotency-key': `bulk-${more[0]!.distributionId}` };
      const first = await bulkRecall(
        more.map((l) => l.distributionId),
        key,
      );
      const again = await bulkRecall(
        more.map((l) => l.distributionId),
        key,
      );
      expect(again.body).toEqual(first.body);
      for (const link of more) expect(await recallEvents(link.ticket.id)).toBe(1);
    });

    it('gives many links the same changes; a link the change does not fit is listed, the others are changed', async () => {
      const links = [await makeLink({ max_clicks: 10 }), await makeLink({ max_clicks: 10 }), await makeLink()];
      for (let i = 0; i < 6; i++) expect((await claim(links[1]!.code)).status).toBe(200);
      const expiry = inHours(72);
      const res = await bulkEdit({
        distribution_ids: links.map((l) => l.distributionId),
        max_clicks: 5,
        expiry_date: expiry,
        label: 'Box 12',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = res.body as unknown as BulkUpdateResponse;
      expect(body.message).toBe('2 links updated');
      expect(body.updated.map((u) => u.distribution.distribution_id)).toEqual([
        links[0]!.distributionId,
        links[2]!.distributionId,
      ]);
      expect(body.updated[0]).toMatchObject({ state: 'active', distribution: { max_clicks: 5, label: 'Box 12' } });
      expect(body.failed).toEqual([
        {
          distribution_id: links[1]!.distributionId,
          code: 'LIMIT_BELOW_CLICKS',
          message: 'Max clicks cannot be lower than the 6 clicks already counted',
        },
      ]);
      expect((await ticketOf(links[2]!.ticket.id)).distribution).toMatchObject({ max_clicks: 5, label: 'Box 12' });
      expect((await ticketOf(links[1]!.ticket.id)).distribution).toMatchObject({ max_clicks: 10, label: null });
      const entries = (await audits()).filter((a) => a.metadata.bulk_action);
      expect(entries.filter((a) => a.event_data.status === 'SUCCESS')).toHaveLength(2);
      expect(entries.filter((a) => a.event_data.status === 'FAILED')).toHaveLength(1);
    });
  });
  describe('the links export (GET /v1/links/export.csv)', () => {
    const exported = async (client: ApiClient | null = user) => {
      const res = await fetch(`${stack.baseUrl}/v1/links/export.csv`, {
        headers: client ? { cookie: client.sessionCookie } : {},
      });
      return {
        res,
        lines: (await res.text())
          .replace(/^\uFEFF/, '')
          .trim()
          .split(/\r?\n/),
      };
    };

    it('lists every link of the caller with its label, state, clicks, limit, expiry and last click, newest first', async () => {
      const active = await makeLink({ max_clicks: 3, label: '=HYPERLINK("http://x")' });
      expect((await claim(active.code)).status).toBe(200);
      const recalled = await makeLink({ label: 'Sam, "row F"' });
      expect((await user.request('POST', `/v1/distributions/${recalled.distributionId}/recall`)).status).toBe(200);
      const full = await makeLink({ max_clicks: 1 });
      expect((await claim(full.code)).status).toBe(200);
      await subscriptionsCaughtUp(stack.app);

      const { res, lines } = await exported();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(res.headers.get('content-disposition')).toContain('seatlink-links.csv');
      expect(lines[0]).toBe(
        'Link,Ticket,Label,Recipient,Recipient Email,State,Clicks,Max Clicks,Expiry,Created,Last Click,Claimed By,Claimed On,Recalled,Distribution ID,Ticket ID',
      );
      const rowOf = (distributionId: string) => lines.find((l) => l.includes(distributionId))!;
      // Newest first: the last made is the first row.
      expect(lines[1]).toContain(full.distributionId);
      expect(rowOf(full.distributionId)).toContain(',limit_reached,1,1,,');
      // A label a spreadsheet would run as a formula is quoted; commas and quotes are escaped.
      expect(rowOf(active.distributionId)).toContain(`"'=HYPERLINK(""http://x"")",,,active,1,3,,`);
      expect(rowOf(recalled.distributionId)).toContain(`"Sam, ""row F""",,,recalled,0,,,`);
      expect(rowOf(active.distributionId).startsWith(`http://localhost:3000/l/${active.code},`)).toBe(true);
      expect(rowOf(active.distributionId)).toMatch(/,\d{4}-\d\d-\d\dT[^,]+Z,\d{4}-\d\d-\d\dT[^,]+Z,,/);
      // Every link the user made, and only theirs.
      const [count] = await database.query<{ n: number }>('select count(*)::int as n from links where user_id = $1', [
        userId,
      ]);
      expect(lines).toHaveLength(1 + count!.n);

      const stranger = new ApiClient(stack.baseUrl);
      const login = await createVerifiedUser(stack.app);
      await stranger.login(login.email, login.password);
      expect((await exported(stranger)).lines).toHaveLength(1);
      expect((await exported(null)).res.status).toBe(401);
    });
  });
});
