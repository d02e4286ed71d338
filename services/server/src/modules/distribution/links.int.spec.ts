import { LINK_MESSAGES, type DistributeResponse, type PublicLink, type Ticket, type User } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../bootstrap.js';
import { DATABASE } from '../../infra/db/database.module.js';
import { queryRows, type Database } from '../../infra/db/database.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { signedInSocket } from '../../testing/link-holder.js';
import { createVerifiedUser } from '../../testing/users.js';
import { linkWalletWith, passes, simControl, startSim } from '../../testing/wallet-fixture.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { PurgeClaimKeysJob } from './purge-claim-keys.job.js';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

describe('links as recipients use them: viewing counts nothing, each claim counts one click, never past the limit', () => {
  let sim: WalletSimApp;
  let stack: TestStack;
  let database: Database;
  let user: ApiClient;
  let userId: string;
  let tickets: Ticket[];
  let next = 0;

  const claim = (code: string, userAgent: string | null = BROWSER) =>
    fetch(`${stack.baseUrl}/v1/links/${code}/claim`, {
      method: 'POST',
      headers: userAgent ? { 'user-agent': userAgent } : {},
    });
  /** A claim as the recipient page sends it: with the Idempotency-Key of its press. */
  const claimWithKey = (code: string, key: string, baseUrl = stack.baseUrl) =>
    fetch(`${baseUrl}/v1/links/${code}/claim`, {
      method: 'POST',
      headers: { 'user-agent': BROWSER, 'idempotency-key': key },
    });
  const keptKeys = async (distributionId: string) =>
    (
      await database.query<{ key: string; n: number }>(
        'select key, n from link_claim_keys where distribution_id = $1 order by n',
        [distributionId],
      )
    ).map((r) => [r.key, r.n]);
  const clickEvents = async (distributionId: string) => {
    return (
      await database.query<{ n: number }>(`select (data->>'n')::int as n from events where stream_id = $1 order by 1`, [
        `link-clicks-${distributionId}`,
      ])
    ).map((r) => r.n);
  };
  /** A new link on a fresh ticket; answers its code and ids. */
  const makeLink = async (
    options: { max_clicks?: number | null; expiry_date?: string | null; label?: string } = {},
  ) => {
    const ticket = tickets[next++]!;
    const res = await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [ticket.id], ...options });
    expect(res.status).toBe(200);
    const made = (res.body as unknown as DistributeResponse).distributions[0]!;
    return { code: made.link.split('/l/')[1]!, distributionId: made.distribution_id, ticket };
  };
  /** The link's counter, which claims decide on: exact the moment a claim is answered. */
  const counterOf = async (distributionId: string) =>
    (
      await database.query<{ clicks: number }>('select clicks from link_counters where distribution_id = $1', [
        distributionId,
      ])
    )[0]!.clicks;
  /**
   * The clicks its owner sees (the links read model), once the subscriptions have read the feed: the claim writes the
   * count there itself, and the projection of its events gives the same. Checked against the counter.
   */
  const clicksOf = async (distributionId: string) => {
    await subscriptionsCaughtUp(stack.app);
    const [row] = await database.query<{ clicks: number }>('select clicks from links where distribution_id = $1', [
      distributionId,
    ]);
    expect(row?.clicks, 'the read model shows what the counter counted').toBe(await counterOf(distributionId));
    return row!.clicks;
  };
  /** Two hours later, as the database's clock sees it: the link's expiry has passed. */
  const expire = (distributionId: string) =>
    database.query(`update link_counters set expires_at = now() - interval '1 second' where distribution_id = $1`, [
      distributionId,
    ]);

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
    ({ tickets } = await linkWalletWith(user, simControl(url), 'links@wallet.test', passes('links', 30)));
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('shows a recipient the ticket without counting, then counts a claim and answers where to save the pass', async () => {
    const { code, distributionId, ticket } = await makeLink({ max_clicks: 5 });
    for (let i = 0; i < 3; i++) {
      const view = await fetch(`${stack.baseUrl}/v1/links/${code}`, { headers: { 'user-agent': BROWSER } });
      expect(view.status).toBe(200);
      expect((await view.json()) as PublicLink).toMatchObject({
        state: 'active',
        expires_at: null,
        ticket: { title: ticket.title, venue_name: 'Quayside Stadium', seat_info: ticket.seat.seat_info_combined },
      });
    }
    expect(await clicksOf(distributionId)).toBe(0);
    const res = await claim(code);
    expect(res.status).toBe(200);
    const { wallet_url } = (await res.json()) as { wallet_url: string };
    expect(wallet_url).toMatch(/\/save\/links-\d+$/);
    expect(await clicksOf(distributionId)).toBe(1);
    const saved = await fetch(wallet_url);
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain('Saved to your wallet');
    await expect
      .poll(
        async () =>
          ((await user.request('GET', '/v1/tickets')).body.tickets as Ticket[]).find((t) => t.id === ticket.id)
            ?.distribution?.clicks,
      )
      .toBe(1);
  });

  it('never counts link previewers and bots, nor a client that does not say what it is', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: 5 });
    for (const agent of [
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'WhatsApp/2.23.20.0',
      'TelegramBot (like TwitterBot)',
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
      'curl/8.5.0',
      // Longer than the judged agents remembered per entry: judged afresh each time, still refused.
      `Googlebot/2.1 (+http://www.google.com/bot.html) ${'x'.repeat(8000)}`,
      null,
    ]) {
      // Twice: the second answer comes from the judged agents remembered, and must be the same.
      for (const attempt of [1, 2]) {
        const res = await claim(code, agent);
        expect(res.status, `${String(agent).slice(0, 40)} (${attempt})`).toBe(403);
        expect(((await res.json()) as { code: string }).code).toBe('AUTOMATED_CLIENT');
      }
    }
    expect(await clicksOf(distributionId)).toBe(0);
    // A person's browser after them all is counted, twice as well.
    for (const attempt of [1, 2]) expect((await claim(code)).status, `browser (${attempt})`).toBe(200);
    expect(await clicksOf(distributionId)).toBe(2);
  });

  it('lets exactly max_clicks of 200 claimers at once through, and says Limit Reached to the rest', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: 100 });
    const results = await Promise.all(Array.from({ length: 200 }, () => claim(code)));
    const ok = results.filter((r) => r.status === 200);
    const gone = results.filter((r) => r.status === 410);
    expect(ok).toHaveLength(100);
    expect(gone).toHaveLength(100);
    expect(await Promise.all(gone.slice(0, 3).map(async (r) => ((await r.json()) as { code: string }).code))).toEqual([
      'LIMIT_REACHED',
      'LIMIT_REACHED',
      'LIMIT_REACHED',
    ]);
    expect(await clicksOf(distributionId)).toBe(100);
    expect(((await (await fetch(`${stack.baseUrl}/v1/links/${code}`)).json()) as PublicLink).state).toBe(
      'limit_reached',
    );
    // Each counted click is one event, at the position its number gives, none twice.
    const recorded = await database.query<{ n: number; positions: number; distinct_n: number }>(
      `select count(*)::int as n, max(stream_position)::int as positions, count(distinct (data->>'n'))::int as distinct_n
       from events where stream_id = $1`,
      [`link-clicks-${distributionId}`],
    );
    expect(recorded[0]).toEqual({ n: 100, positions: 99, distinct_n: 100 });
  }, 30_000);

  it('counts a batch without keys as far as the limit goes, each click an event in the same transaction', async () => {
    const counted = async (code: string, claims: number) => {
      const [row] = await database.query<{ clicks: number[] }>(
        `select clicks from seatlink_claim_link($1, $2::text[], null, true)`,
        [code, Array(claims).fill(null)],
      );
      return row!.clicks;
    };
    const limited = await makeLink({ max_clicks: 5 });
    expect(await counted(limited.code, 3)).toEqual([1, 2, 3]);
    expect(await counted(limited.code, 4)).toEqual([4, 5, null, null]);
    expect(await counted(limited.code, 2)).toEqual([null, null]);
    expect(await counted(limited.code, 0)).toEqual([]);
    // Counted by the function alone: the counter, its events and the owner's list say the same.
    expect(await counterOf(limited.distributionId)).toBe(5);
    expect(await clickEvents(limited.distributionId)).toEqual([1, 2, 3, 4, 5]);
    const unlimited = await makeLink({ max_clicks: null });
    expect(await counted(unlimited.code, 3)).toEqual([1, 2, 3]);
    expect(await counterOf(unlimited.distributionId)).toBe(3);
    expect(await clickEvents(unlimited.distributionId)).toEqual([1, 2, 3]);
    await expect.poll(() => clicksOf(unlimited.distributionId)).toBe(3);
    // A statement that fails after counting takes its events with it (one transaction).
    const failed = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select * from seatlink_claim_link(${unlimited.code}, ${'{NULL}'}::text[], null, true)`);
        throw new Error('the caller fails after the count');
      })
      .catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(Error);
    expect(await counterOf(unlimited.distributionId)).toBe(3);
    expect(await clickEvents(unlimited.distributionId)).toEqual([1, 2, 3]);
  });

  it('takes a limit of 0 as no limit, as the dashboard shows it (null or 0 is unlimited: docs/reference.md#link)', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: 5 });
    // The API takes limits from 1; a 0 can only come from older data.
    await database.query('update link_counters set max_clicks = 0 where distribution_id = $1', [distributionId]);
    for (let i = 0; i < 3; i++) expect((await claim(code)).status).toBe(200);
    expect(((await (await fetch(`${stack.baseUrl}/v1/links/${code}`)).json()) as PublicLink).state).toBe('active');
    expect(await counterOf(distributionId)).toBe(3);
  });

  it('holds the limit across API processes: two processes, 200 claimers, exactly 100 through', async () => {
    const second = await createHttpApp(stack.config, 'api');
    await second.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = second.getHttpServer().address();
      const secondUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const { code, distributionId } = await makeLink({ max_clicks: 100 });
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          fetch(`${i % 2 === 0 ? stack.baseUrl : secondUrl}/v1/links/${code}/claim`, {
            method: 'POST',
            headers: { 'user-agent': BROWSER },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(100);
      expect(results.filter((r) => r.status === 410)).toHaveLength(100);
      expect(await counterOf(distributionId)).toBe(100);
      expect(await clicksOf(distributionId)).toBe(100);
    } finally {
      await second.close();
    }
  }, 30_000);

  it('counts a claim retried with its Idempotency-Key once, and answers the retry as the first', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: 10 });
    const first = await claimWithKey(code, 'press-1');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    const retry = await claimWithKey(code, 'press-1');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(await retry.json()).toEqual(await first.json());
    // Another press (another key) and a claim without a key are clicks of their own.
    expect((await claimWithKey(code, 'press-2')).status).toBe(200);
    expect((await claim(code)).status).toBe(200);
    expect(await clicksOf(distributionId)).toBe(3);
    expect(await keptKeys(distributionId)).toEqual([
      ['press-1', 1],
      ['press-2', 2],
    ]);
    expect(await clickEvents(distributionId)).toEqual([1, 2, 3]);
    // The same key on another link is another claim.
    const other = await makeLink({ max_clicks: 10 });
    expect((await claimWithKey(other.code, 'press-1')).headers.get('idempotency-replayed')).toBeNull();
    expect(await clicksOf(other.distributionId)).toBe(1);
  });

  it('counts one click for a key sent by many at once, across two API processes, beside other keys', async () => {
    const second = await createHttpApp(stack.config, 'api');
    await second.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = second.getHttpServer().address();
      const secondUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const { code, distributionId } = await makeLink({ max_clicks: null });
      // 60 retries of one press, split over both processes, among 40 presses of their own (and again).
      const sends = [
        ...Array.from({ length: 60 }, (_, i) => ({ key: 'same-press', url: i % 2 ? secondUrl : stack.baseUrl })),
        ...Array.from({ length: 80 }, (_, i) => ({ key: `press-${i % 40}`, url: i % 3 ? secondUrl : stack.baseUrl })),
      ].sort(() => Math.random() - 0.5);
      const results = await Promise.all(sends.map(({ key, url }) => claimWithKey(code, key, url)));
      expect(results.map((r) => r.status)).toEqual(sends.map(() => 200));
      expect(results.filter((r) => r.headers.get('idempotency-replayed') === 'true')).toHaveLength(59 + 40);
      expect(await counterOf(distributionId)).toBe(41);
      const kept = await keptKeys(distributionId);
      expect(kept.map(([, n]) => n)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
      // Each click counted once, recorded once, whichever process counted it.
      expect(await clickEvents(distributionId)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
      expect(await clicksOf(distributionId)).toBe(41);
    } finally {
      await second.close();
    }
  }, 30_000);

  it('at the limit: a counted key is answered again, a refused key is refused again and kept nowhere', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: 2 });
    const first = await Promise.all(['a', 'b', 'c', 'd'].map((key) => claimWithKey(code, key)));
    expect(first.filter((r) => r.status === 200)).toHaveLength(2);
    expect(first.filter((r) => r.status === 410)).toHaveLength(2);
    const counted = (await keptKeys(distributionId)).map(([key]) => key as string);
    expect(counted).toHaveLength(2);
    for (const key of ['a', 'b', 'c', 'd']) {
      const again = await claimWithKey(code, key);
      if (counted.includes(key)) {
        expect(again.status, key).toBe(200);
        expect(again.headers.get('idempotency-replayed')).toBe('true');
      } else {
        expect(again.status, key).toBe(410);
        expect(await again.json()).toMatchObject({ code: 'LIMIT_REACHED', message: LINK_MESSAGES.limit_reached });
      }
    }
    expect(await clicksOf(distributionId)).toBe(2);
    expect(await keptKeys(distributionId)).toHaveLength(2);
  });

  it('answers a counted key 410 withdrawn once its link is recalled, and counts nothing for an expired one', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: 5 });
    expect((await claimWithKey(code, 'before-recall')).status).toBe(200);
    expect((await user.request('POST', `/v1/distributions/${distributionId}/recall`)).status).toBeLessThan(300);
    const retry = await claimWithKey(code, 'before-recall');
    expect(retry.status).toBe(410);
    expect(await retry.json()).toMatchObject({ code: 'LINK_RECALLED' });

    const expiring = await makeLink({ expiry_date: new Date(Date.now() + 2 * 3600_000).toISOString() });
    await expire(expiring.distributionId);
    expect((await claimWithKey(expiring.code, 'late')).status).toBe(410);
    expect(await keptKeys(expiring.distributionId)).toEqual([]);
    expect(await clicksOf(expiring.distributionId)).toBe(0);
  });

  it('refuses a malformed Idempotency-Key with 400 and counts nothing', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: 5 });
    for (const bad of ['', 'x'.repeat(256), 'with space', 'caf\u00e9', '\u00a0']) {
      const res = await fetch(`${stack.baseUrl}/v1/links/${code}/claim`, {
        method: 'POST',
        headers: { 'user-agent': BROWSER, 'idempotency-key': bad },
      });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'INVALID_IDEMPOTENCY_KEY' });
    }
    expect((await claimWithKey(code, 'x'.repeat(255))).status).toBe(200);
    expect(await clicksOf(distributionId)).toBe(1);
  });

  it('keeps nothing of a claim whose statement fails half-way: the retry with its key counts it, once', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: 5 });
    // The key is written before the counter; the counter's update fails (as a lost connection or a conflict would).
    await database.query(`
      create or replace function test_refuse_click() returns trigger language plpgsql as $$
      begin raise exception 'refused by the test' using errcode = '40001'; end $$;
      create trigger test_refuse_click before update on link_counters for each row execute function test_refuse_click();`);
    try {
      const failed = await claimWithKey(code, 'half-way');
      expect(failed.status).toBe(503);
      expect(await keptKeys(distributionId)).toEqual([]);
    } finally {
      await database.query('drop trigger test_refuse_click on link_counters; drop function test_refuse_click()');
    }
    const retry = await claimWithKey(code, 'half-way');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotency-replayed')).toBeNull();
    expect(await clicksOf(distributionId)).toBe(1);
    expect(await keptKeys(distributionId)).toEqual([['half-way', 1]]);
  });

  it('forgets a counted key after 24 hours (the hourly purge), so the same key counts again', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: 5 });
    expect((await claimWithKey(code, 'old-press')).status).toBe(200);
    expect((await claimWithKey(code, 'new-press')).status).toBe(200);
    await database.query(
      `update link_claim_keys set claimed_at = now() - interval '25 hours' where distribution_id = $1 and key = $2`,
      [distributionId, 'old-press'],
    );
    await stack.app.get(PurgeClaimKeysJob).run();
    expect(await keptKeys(distributionId)).toEqual([['new-press', 2]]);
    expect((await claimWithKey(code, 'new-press')).headers.get('idempotency-replayed')).toBe('true');
    const again = await claimWithKey(code, 'old-press');
    expect(again.headers.get('idempotency-replayed')).toBeNull();
    expect(await clicksOf(distributionId)).toBe(3);
  });

  it('says a link expired once its time has passed (410 LINK_EXPIRED), and counts nothing', async () => {
    const { code, distributionId } = await makeLink({ expiry_date: new Date(Date.now() + 2 * 3600_000).toISOString() });
    await expire(distributionId);
    const res = await claim(code);
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ code: 'LINK_EXPIRED', message: 'This link has expired' });
    expect(((await (await fetch(`${stack.baseUrl}/v1/links/${code}`)).json()) as PublicLink).state).toBe('expired');
    expect(await clicksOf(distributionId)).toBe(0);
  });

  it('answers 404 for an unknown code and 400 for a malformed one', async () => {
    const unknown = 'A'.repeat(22);
    const answers = [await claim(unknown), await fetch(`${stack.baseUrl}/v1/links/${unknown}`)];
    // The claim (served by Fastify itself) and the view (a controller) answer alike.
    expect(answers.map((r) => r.status)).toEqual([404, 404]);
    const [claimed, viewed]: unknown[] = await Promise.all(answers.map((r) => r.json()));
    expect(claimed).toEqual(viewed);
    expect(claimed).toEqual({ message: LINK_MESSAGES.notFound, code: 'LINK_NOT_FOUND', statusCode: 404 });
    for (const bad of ['short', `${'A'.repeat(21)}%00`, 'A'.repeat(23), '%E2%80%AE'.repeat(3)]) {
      const res = await claim(bad);
      expect(res.status, bad).toBe(400);
      const view = await fetch(`${stack.baseUrl}/v1/links/${bad}`);
      expect(await res.json()).toEqual(await view.json());
    }
  });

  it('pushes the new click count to the owner’s dashboard live, a few times a second however many clicks come', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: null });
    const socket = await signedInSocket(stack.baseUrl, user.sessionCookie);
    try {
      const pushed: number[] = [];
      socket.on('distributions.clicked', (p: { links: Array<{ distribution_id: string; clicks: number }> }) => {
        for (const link of p.links) if (link.distribution_id === distributionId) pushed.push(link.clicks);
      });
      await Promise.all(Array.from({ length: 60 }, () => claim(code)));
      await expect.poll(() => pushed.at(-1), { timeout: 5000 }).toBe(60);
      expect(pushed.length).toBeLessThan(10);
      expect([...pushed].sort((a, b) => a - b)).toEqual(pushed);
    } finally {
      socket.disconnect();
    }
  });

  it('shows the count a claim was answered with in the owner’s list at once: one number for claim, list and push', async () => {
    const { code, distributionId, ticket } = await makeLink({ max_clicks: 50 });
    const socket = await signedInSocket(stack.baseUrl, user.sessionCookie);
    try {
      const pushed: number[] = [];
      socket.on('distributions.clicked', (p: { links: Array<{ distribution_id: string; clicks: number }> }) => {
        for (const link of p.links) if (link.distribution_id === distributionId) pushed.push(link.clicks);
      });
      for (let i = 1; i <= 3; i++) {
        expect((await claim(code)).status).toBe(200);
        // No wait for any subscription: the list reads what the claim's own transaction wrote.
        const listed = ((await user.request('GET', '/v1/tickets')).body.tickets as Ticket[]).find(
          (t) => t.id === ticket.id,
        );
        expect(listed?.distribution?.clicks).toBe(i);
        expect(await counterOf(distributionId)).toBe(i);
        expect(await clickEvents(distributionId)).toEqual(Array.from({ length: i }, (_, k) => k + 1));
      }
      await expect.poll(() => pushed.at(-1), { timeout: 5000 }).toBe(3);
    } finally {
      socket.disconnect();
    }
  });

  it('draws a link’s clicks per minute for its owner, and for nobody else', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: null, label: 'for Sam' });
    for (let i = 0; i < 7; i++) expect((await claim(code)).status).toBe(200);
    await subscriptionsCaughtUp(stack.app);
    const timeline = await user.request('GET', `/v1/distributions/${distributionId}/clicks`);
    expect(timeline.status).toBe(200);
    expect(timeline.body).toMatchObject({
      distribution_id: distributionId,
      label: 'for Sam',
      clicks: 7,
      max_clicks: null,
    });
    const minutes = timeline.body.minutes as Array<{ minute: string; clicks: number }>;
    expect(minutes.reduce((sum, m) => sum + m.clicks, 0)).toBe(7);
    expect(minutes.every((m) => m.minute.endsWith(':00.000Z'))).toBe(true);
    const stranger = new ApiClient(stack.baseUrl);
    const login = await createVerifiedUser(stack.app);
    expect((await stranger.login(login.email, login.password)).status).toBe(200);
    expect((await stranger.request('GET', `/v1/distributions/${distributionId}/clicks`)).status).toBe(404);
  });

  it('rebuilds the click counts from the click events (a replay counts every recorded click)', async () => {
    const { code, distributionId } = await makeLink({ max_clicks: 10 });
    for (let i = 0; i < 4; i++) expect((await claim(code)).status).toBe(200);
    await subscriptionsCaughtUp(stack.app);
    // The links read model emptied and rebuilt from the events, as `npm run replay` does.
    await stack.app.get(SubscriptionOperations).reset(['links']);
    await expect.poll(() => clicksOf(distributionId).catch(() => null), { timeout: 15_000 }).toBe(4);
    expect((await claim(code)).status).toBe(200);
    expect(await clicksOf(distributionId)).toBe(5);
  });

  it('loses no count to rebuilds run while claims arrive, and leaves `links` as a fresh rebuild builds it', async () => {
    const limited = await makeLink({ max_clicks: 60 });
    const unlimited = await makeLink({ max_clicks: null });
    const operations = stack.app.get(SubscriptionOperations);
    const answered = { limited: [] as number[], unlimited: [] as number[] };
    const claiming = (async () => {
      for (let wave = 0; wave < 10; wave++) {
        const [a, b] = await Promise.all([
          Promise.all(Array.from({ length: 10 }, () => claim(limited.code))),
          Promise.all(Array.from({ length: 10 }, () => claim(unlimited.code))),
        ]);
        answered.limited.push(...a.map((r) => r.status));
        answered.unlimited.push(...b.map((r) => r.status));
        await new Promise((r) => setTimeout(r, 15));
      }
    })();
    // `links` emptied and rebuilt three times while the claims come in.
    const rebuilding = (async () => {
      for (let i = 0; i < 3; i++) {
        await operations.reset(['links']);
        await new Promise((r) => setTimeout(r, 40));
      }
    })();
    await Promise.all([claiming, rebuilding]);
    expect(answered.limited.filter((s) => s === 200)).toHaveLength(60);
    expect(answered.limited.filter((s) => s === 410)).toHaveLength(40);
    expect(answered.unlimited.every((s) => s === 200)).toBe(true);
    expect(await counterOf(limited.distributionId)).toBe(60);
    expect(await counterOf(unlimited.distributionId)).toBe(100);
    // The read model shows every count (clicksOf checks it against the counter)...
    expect(await clicksOf(limited.distributionId)).toBe(60);
    expect(await clicksOf(unlimited.distributionId)).toBe(100);
    // ... and is, row for row, what a rebuild from the events alone makes.
    // Every row as built, but for its version (the transaction that wrote it, another one in each rebuild).
    const dump = () =>
      queryRows(database.db, sql`select to_jsonb(l) - 'version' as row from links l order by distribution_id`);
    const live = await dump();
    await operations.reset(['links']);
    await subscriptionsCaughtUp(stack.app);
    expect(await dump()).toEqual(live);
  }, 60_000);
});
