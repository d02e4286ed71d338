import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import type {
  WebhookDeliveriesResponse,
  WebhookDelivery,
  WebhookSecretResponse,
  WebhooksResponse,
} from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { claimLink, makeLink, newLinkHolder } from '../../testing/link-holder.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { until } from '../../testing/until.js';
import { createVerifiedUser } from '../../testing/users.js';
import { linkWalletWith, passes, simControl, startSim } from '../../testing/wallet-fixture.js';
import { WarnExpiringLinksJob } from '../distribution/warn-expiring-links.job.js';
import { ApiDocumentCheck } from '../../testing/api-document-check.js';
import { TestSmtpServer } from '../../testing/test-smtp.js';
import { WebhookDeliveries } from './webhook-deliveries.service.js';
import { WebhookSender } from './webhook-sender.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: { id: string; type: string; created_at: string; data: Record<string, unknown> };
}

/** An endpoint of a user's own system, on this machine: it records what arrives and answers as it is told. */
class Receiver {
  readonly received: Received[] = [];
  connections = 0;
  answer: (r: Received, nth: number) => number | 'hang' | Promise<number> = () => 200;
  private server!: Server;
  url = '';

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const got: Received = {
          path: req.url ?? '',
          headers: req.headers,
          raw,
          body: JSON.parse(raw) as Received['body'],
        };
        this.received.push(got);
        void Promise.resolve(this.answer(got, this.received.length)).then((status) => {
          if (status === 'hang') return;
          if (status >= 300 && status < 400) res.setHeader('location', '/elsewhere');
          res.statusCode = status;
          res.end('ok');
        });
      });
    });
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  ofType(type: string) {
    return this.received.filter((r) => r.body.type === type && r.path !== '/elsewhere');
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const stripe = new Stripe('sk_test_verifier');

describe('webhooks: signed, at least once, in order per link, retried, disabled when failing, never to private addresses', () => {
  let sim: WalletSimApp;
  let control: ReturnType<typeof simControl>;
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  const receivers: Receiver[] = [];
  const smtp = new TestSmtpServer();

  const receiver = async () => {
    const r = await new Receiver().start();
    receivers.push(r);
    return r;
  };
  const addEndpoint = async (client: ApiClient, url: string, events: string[]) => {
    const res = await client.request('POST', '/v1/me/webhooks', { url, events });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as unknown as WebhookSecretResponse;
  };
  const deliveriesOf = async (client: ApiClient, endpointId: string) =>
    (
      (await client.request('GET', `/v1/me/webhooks/${endpointId}/deliveries`))
        .body as unknown as WebhookDeliveriesResponse
    ).deliveries;
  const endpointOf = async (client: ApiClient, endpointId: string) =>
    ((await client.request('GET', '/v1/me/webhooks')).body as unknown as WebhooksResponse).webhooks.find(
      (w) => w.id === endpointId,
    );

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    control = simControl(url);
    stack = await startTestStack({
      env: {
        WALLET_PROVIDER_URL: url,
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        SMTP_URL: await smtp.start(),
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_BACKOFF_MS: '150',
        WEBHOOK_TIMEOUT_MS: '800',
        WEBHOOK_SWEEP_MS: '400',
        WEBHOOK_SETTLE_MS: '300',
        WEBHOOK_DISABLE_AFTER_FAILURES: '4',
        WEBHOOK_DISABLE_AFTER_MS: '0',
      },
    });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
  }, 60_000);
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await stack?.close();
    await smtp.stop();
    await sim?.close();
  });

  it('adds an endpoint whose secret is shown once and kept sealed; refuses addresses and bodies out of shape', async () => {
    const user = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    await client.login(user.email, user.password);
    const made = await addEndpoint(client, 'http://127.0.0.1:9/hook', [
      'link.claimed',
      'credits.changed',
      'link.claimed',
    ]);
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(made.webhook).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      events: ['link.claimed', 'credits.changed'],
      enabled: true,
      secret_prefix: made.secret.slice(0, 10),
    });
    const listed = (await client.request('GET', '/v1/me/webhooks')).body as unknown as WebhooksResponse;
    expect(listed.webhooks).toEqual([made.webhook]);
    const [leaked] = await database.query<{ n: number }>(
      `select (select count(*) from events where data::text like $1) + (select count(*) from webhook_routes where secret_sealed like $1) as n`,
      [`%${made.secret.slice(6)}%`],
    );
    expect(Number(leaked!.n)).toBe(0);

    const refused: Array<[unknown, string]> = [
      [{ url: 'http://example.com/hook', events: ['link.claimed'] }, 'Enter the https:// address of your endpoint'],
      [{ url: 'https://10.0.0.5/hook', events: ['link.claimed'] }, 'not a private'],
      [{ url: 'https://169.254.169.254/latest/meta-data', events: ['link.claimed'] }, 'public internet address'],
      [{ url: 'https://[::1]/hook', events: ['link.claimed'] }, 'public internet address'],
      [{ url: 'https://localhost/hook', events: ['link.claimed'] }, 'public internet address'],
      [{ url: 'https://user:pw@example.com/hook', events: ['link.claimed'] }, 'user name or password'],
      [{ url: 'ftp://example.com/hook', events: ['link.claimed'] }, 'https://'],
      [{ url: 'https://example.com/\u0000', events: ['link.claimed'] }, 'https://'],
      [{ url: 'https://example.com/\u202Eevil', events: ['link.claimed'] }, 'https://'],
      [{ url: `https://example.com/${'a'.repeat(3000)}`, events: ['link.claimed'] }, 'https://'],
      [{ url: 'https://example.com/hook', events: [] }, 'Choose the events'],
      [{ url: 'https://example.com/hook', events: ['link.everything'] }, 'Choose the events'],
      [{ url: 'https://example.com/hook', events: ['link.claimed'], secret: 'mine' }, ''],
      [{ url: { deep: { er: [[[[1]]]] } }, events: ['link.claimed'] }, ''],
    ];
    for (const [body, message] of refused) {
      const res = await client.request('POST', '/v1/me/webhooks', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(String(res.body.message)).toContain(message);
    }
    for (const [method, path] of [
      ['PATCH', '/v1/me/webhooks/not-an-id'],
      ['DELETE', '/v1/me/webhooks/00000000-0000-4000-8000-000000000000'],
      ['GET', '/v1/me/webhooks/00000000-0000-4000-8000-000000000000/deliveries'],
      ['POST', `/v1/me/webhooks/${made.webhook.id}/deliveries/nope/resend`],
    ] as const) {
      const res = await client.request(method, path, method === 'PATCH' ? { enabled: false } : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await client.request('PATCH', `/v1/me/webhooks/${made.webhook.id}`, {})).status).toBe(400);
    // Another user's endpoint is not theirs to see or change.
    const other = await createVerifiedUser(stack.app);
    const otherClient = new ApiClient(stack.baseUrl);
    await otherClient.login(other.email, other.password);
    expect((await otherClient.request('GET', `/v1/me/webhooks/${made.webhook.id}/deliveries`)).status).toBe(404);
    expect((await otherClient.request('DELETE', `/v1/me/webhooks/${made.webhook.id}`)).status).toBe(404);
    expect(await endpointOf(client, made.webhook.id)).toBeDefined();
  });

  it('holds at most 10 endpoints under a burst of 20 adds, every refusal a 409', async () => {
    const user = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    await client.login(user.email, user.password);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.request('POST', '/v1/me/webhooks', { url: `https://example.com/${i}`, events: ['link.claimed'] }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(10);
    expect(
      ((await client.request('GET', '/v1/me/webhooks')).body as unknown as WebhooksResponse).webhooks,
    ).toHaveLength(10);
  });

  it('tells of claims, the limit, the recall and the balance, signed so that Stripe’s own verifier accepts them', async () => {
    const hooks = await receiver();
    const holder = await newLinkHolder(stack, admin, control, { tickets: 2, credits: 20 });
    const { secret, webhook } = await addEndpoint(holder.client, `${hooks.url}/seatlink`, [
      'link.claimed',
      'link.limit_reached',
      'link.recalled',
      'credits.changed',
    ]);
    const sam = { name: 'Sam', email: 'sam@recipient.test' };
    const link = await makeLink(holder.client, holder.tickets[0]!, {
      max_clicks: 2,
      recipients: [{ ticket_id: holder.tickets[0]!.id, ...sam }],
    });
    expect((await claimLink(stack.baseUrl, link.code)).status).toBe(200);
    expect((await claimLink(stack.baseUrl, link.code)).status).toBe(200);
    expect((await holder.client.request('POST', `/v1/distributions/${link.distributionId}/recall`)).status).toBe(200);
    await until('five deliveries', () => hooks.received.length >= 5);
    const ofLink = hooks.received.filter((r) => r.body.data.link_id === link.distributionId);
    expect(ofLink.map((r) => [r.body.type, r.body.data.claims ?? null])).toEqual([
      ['link.claimed', 1],
      ['link.claimed', 2],
      ['link.limit_reached', 2],
      ['link.recalled', null],
    ]);
    // Each names whom the link is for.
    expect(ofLink.map((r) => r.body.data.recipient)).toEqual([sam, sam, sam, sam]);
    expect(ofLink[2]!.body.data).toMatchObject({ max_clicks: 2, ticket_id: holder.tickets[0]!.id });
    const [credits] = hooks.ofType('credits.changed');
    const { change, balance, reason } = credits!.body.data as { change: number; balance: number; reason: string };
    expect([reason, change < 0, balance]).toEqual(['links_paid', true, 20 + change]);
    for (const got of hooks.received) {
      expect(got.path).toBe('/seatlink');
      const header = String(got.headers['seatlink-signature']);
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(stripe.webhooks.constructEvent(got.raw, header, secret).id).toBe(got.body.id);
      expect(() => stripe.webhooks.constructEvent(got.raw, header, 'whsec_wrong')).toThrow();
      expect(() => stripe.webhooks.constructEvent(`${got.raw} `, header, secret)).toThrow();
    }
    const log = await deliveriesOf(holder.client, webhook.id);
    expect(log.every((d) => d.status === 'delivered' && d.attempts === 1 && d.last_status === 200)).toBe(true);
    expect(log.map((d) => d.type).sort()).toEqual(
      ['credits.changed', 'link.claimed', 'link.claimed', 'link.limit_reached', 'link.recalled'].sort(),
    );

    // Resend: the same event (id and body), a fresh signature; a rolled secret signs from then on.
    const rolled = (await holder.client.request('POST', `/v1/me/webhooks/${webhook.id}/secret`))
      .body as unknown as WebhookSecretResponse;
    expect(rolled.secret).not.toBe(secret);
    const first = log.find((d) => d.type === 'link.limit_reached')!;
    const resent = await holder.client.request('POST', `/v1/me/webhooks/${webhook.id}/deliveries/${first.id}/resend`);
    expect(resent.status).toBe(202);
    const again = await until('the resend', () =>
      hooks.received.find((r, i) => i >= 5 && r.body.id === first.event_id),
    );
    expect(again.raw).toBe(first.payload);
    expect(
      stripe.webhooks.constructEvent(again.raw, String(again.headers['seatlink-signature']), rolled.secret).id,
    ).toBe(first.event_id);
  });

  it('retries a failing endpoint with growing waits and keeps each link’s events in order under a burst of claims', async () => {
    const hooks = await receiver();
    const holder = await newLinkHolder(stack, admin, control, { tickets: 1, credits: 20 });
    const { webhook } = await addEndpoint(holder.client, `${hooks.url}/claims`, ['link.claimed']);
    const tries = new Map<string, number>();
    // Each event fails twice (a 503, then no answer in time) before it is taken.
    hooks.answer = (got) => {
      const n = (tries.get(got.body.id) ?? 0) + 1;
      tries.set(got.body.id, n);
      if (n === 1) return 503;
      if (n === 2) return 'hang';
      return new Promise((resolve) => setTimeout(() => resolve(200), Math.random() * 20));
    };
    const link = await makeLink(holder.client, holder.tickets[0]!);
    const claims = await Promise.all(Array.from({ length: 6 }, () => claimLink(stack.baseUrl, link.code)));
    expect(claims.every((c) => c.status === 200)).toBe(true);
    await until(
      'six claims delivered',
      async () => {
        const log = await deliveriesOf(holder.client, webhook.id);
        return log.length === 6 && log.every((d) => d.status === 'delivered');
      },
      60_000,
    );
    // What the endpoint took (its 200s), in order: 1 to 6; every one tried three times.
    const taken = hooks.received.filter(
      (r) => tries.get(r.body.id) !== undefined && r === hooks.received.filter((x) => x.body.id === r.body.id)[2],
    );
    expect(taken.map((r) => r.body.data.claims)).toEqual([1, 2, 3, 4, 5, 6]);
    const log = await deliveriesOf(holder.client, webhook.id);
    expect(log.map((d) => d.attempts)).toEqual([3, 3, 3, 3, 3, 3]);
    // The order of tries: no event was tried before the one before it was taken.
    const firstTry = (claim: number) => hooks.received.findIndex((r) => r.body.data.claims === claim);
    const lastTry = (claim: number) => hooks.received.findLastIndex((r) => r.body.data.claims === claim);
    for (let n = 2; n <= 6; n++) expect(firstTry(n)).toBeGreaterThan(lastTry(n - 1));
  }, 90_000);

  it('disables an endpoint that keeps failing, tells its owner, and delivers what waited once it is enabled', async () => {
    const hooks = await receiver();
    hooks.answer = () => 500;
    const holder = await newLinkHolder(stack, admin, control, { tickets: 1, credits: 20 });
    const { webhook } = await addEndpoint(holder.client, `${hooks.url}/down`, ['link.claimed']);
    const link = await makeLink(holder.client, holder.tickets[0]!);
    expect((await claimLink(stack.baseUrl, link.code)).status).toBe(200);
    const disabled = await until(
      'the endpoint disabled',
      async () => {
        const now = await endpointOf(holder.client, webhook.id);
        return now && !now.enabled ? now : undefined;
      },
      30_000,
    );
    expect(disabled.disabled_reason).toContain('failed deliveries in a row');
    expect(disabled.disabled_reason).toContain('HTTP 500');
    const [mail] = await until('the owner’s e-mail', () =>
      database
        .query<{ subject: string }>(`select subject from mail_outbox where "to" = $1 and subject like '%webhook%'`, [
          holder.email,
        ])
        .then((rows) => (rows.length ? rows : undefined)),
    );
    expect(mail!.subject).toBe('A webhook endpoint of yours was turned off');
    const triedWhileOn = hooks.received.length;
    expect(triedWhileOn).toBeGreaterThanOrEqual(4);
    // Off: nothing more is tried, a new claim waits.
    expect((await claimLink(stack.baseUrl, link.code)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(hooks.received.length).toBe(triedWhileOn);

    hooks.answer = () => 200;
    const enabled = await holder.client.request('PATCH', `/v1/me/webhooks/${webhook.id}`, { enabled: true });
    expect(enabled.body).toMatchObject({
      message: 'Endpoint enabled',
      webhook: { enabled: true, disabled_reason: null },
    });
    await until('both claims delivered', async () => {
      const log = await deliveriesOf(holder.client, webhook.id);
      return log.length === 2 && log.every((d) => d.status === 'delivered');
    });
    const ok = hooks.received.filter((r, i) => i >= triedWhileOn);
    expect(ok.map((r) => r.body.data.claims)).toEqual([1, 2]);
  }, 60_000);

  it('does not follow a redirect, and delivers what the queue lost (the sweep)', async () => {
    const hooks = await receiver();
    hooks.answer = (got) => (got.path === '/moved' ? 302 : 200);
    const user = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    await client.login(user.email, user.password);
    const moved = await addEndpoint(client, `${hooks.url}/moved`, ['credits.changed']);
    const test = (await client.request('POST', `/v1/me/webhooks/${moved.webhook.id}/test`)).body as {
      delivery: WebhookDelivery;
    };
    expect(test.delivery).toMatchObject({ type: 'webhook.test', status: 'pending' });
    const failed = await until('the test refused', async () =>
      (await deliveriesOf(client, moved.webhook.id)).find((d) => d.status === 'failed'),
    );
    expect(failed).toMatchObject({ last_status: 302, last_error: 'HTTP 302: redirects are not followed', attempts: 1 });
    expect(hooks.received.filter((r) => r.path === '/elsewhere')).toHaveLength(0);

    // A delivery whose job the queue never had (Redis lost it): the sweep finds it and it goes.
    const fine = await addEndpoint(client, `${hooks.url}/fine`, ['credits.changed']);
    const id = '6f1c1b7e-1d2a-4b3c-8d4e-5f6a7b8c9d0e';
    await database.query(
      `insert into webhook_deliveries (id, endpoint_id, user_id, order_key, event_id, type, payload, created_at,
                                       occurred_at, next_attempt_at)
       values ($1, $2, $3, 'credits:lost', $1, 'credits.changed', $4, now(), now(), now())`,
      [
        id,
        fine.webhook.id,
        user.id,
        JSON.stringify({
          id,
          type: 'credits.changed',
          created_at: new Date().toISOString(),
          data: { balance: 5, change: 5, reason: 'purchase' },
        }),
      ],
    );
    await until('the lost delivery delivered', async () =>
      (await deliveriesOf(client, fine.webhook.id)).find((d) => d.id === id && d.status === 'delivered'),
    );
    expect(hooks.received.filter((r) => r.body.id === id)).toHaveLength(1);
  });

  it('tells of the tickets a sync brings, and of a link whose expiry passed (once)', async () => {
    const hooks = await receiver();
    const user = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    await client.login(user.email, user.password);
    await admin.request('PUT', `/v1/admin/users/${user.id}/credits`, { credits: 20, reason: 'Test' });
    await addEndpoint(client, `${hooks.url}/tickets`, ['ticket.synced', 'link.expired']);
    const walletEmail = `wh-${user.id.slice(0, 8)}@wallet.test`;
    const { account, tickets } = await linkWalletWith(
      client,
      control,
      walletEmail,
      passes(walletEmail.split('@')[0]!, 2),
    );
    const synced = await until('two tickets told of', () => {
      const got = hooks.ofType('ticket.synced');
      return got.length >= 2 ? got : undefined;
    });
    expect(synced.map((r) => r.body.data.ticket_id).sort()).toEqual(tickets.map((t) => t.id).sort());
    expect(synced[0]!.body.data).toMatchObject({
      change: 'added',
      account_id: account.id,
      ticket: { venue_name: 'Quayside Stadium', section: '1', row: 'A' },
    });

    const link = await makeLink(client, tickets[0]!, {
      expiry_date: new Date(Date.now() + 3600_000 + 60_000).toISOString(),
    });
    await subscriptionsCaughtUp(stack.app);
    const job = stack.app.get(WarnExpiringLinksJob);
    // Not yet; then, as the job would see it in two hours, passed.
    expect(await job.markExpired(new Date())).toBe(0);
    const later = new Date(Date.now() + 2 * 3600_000);
    expect(await job.markExpired(later)).toBe(1);
    await subscriptionsCaughtUp(stack.app);
    // Run again (a second worker, a retry): recorded once.
    expect(await job.markExpired(later)).toBe(0);
    const expired = await until('link.expired', () => hooks.ofType('link.expired')[0]);
    expect(expired.body.data).toMatchObject({ link_id: link.distributionId, ticket_id: tickets[0]!.id });
    await new Promise((r) => setTimeout(r, 600));
    expect(hooks.ofType('link.expired')).toHaveLength(1);
  });

  it('never connects to loopback, private, link-local or metadata addresses, checked on the address a name resolves to', async () => {
    const hooks = await receiver();
    const deliveries = stack.app.get(WebhookDeliveries);
    const user = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    await client.login(user.email, user.password);
    // A public-looking name that resolves to a private address (DNS can say anything).
    const resolvesTo = (address: string) =>
      ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) =>
        options.all ? cb(null, [{ address, family: 4 }]) : cb(null, address, 4)) as never;
    const port = new URL(hooks.url).port;
    // The log says the name is not a public address, never what it resolved to (docs/reference.md#webhooks).
    const cases: Array<[string, string, string]> = [
      [
        '10.1.2.3',
        `https://internal.example.net:${port}/hook`,
        'Refused: internal.example.net is not a public address',
      ],
      [
        '169.254.169.254',
        `https://metadata.example.net:${port}/hook`,
        'Refused: metadata.example.net is not a public address',
      ],
      ['127.0.0.2', `https://loop.example.net:${port}/hook`, 'Refused: loop.example.net is not a public address'],
    ];
    for (const [address, url, error] of cases) {
      const { webhook } = await addEndpoint(client, url, ['credits.changed']);
      deliveries.lookup = resolvesTo(address);
      try {
        await client.request('POST', `/v1/me/webhooks/${webhook.id}/test`);
        const failed = await until(`${address} refused`, async () =>
          (await deliveriesOf(client, webhook.id)).find((d) => d.status === 'failed'),
        );
        expect(failed.last_error).toBe(error);
        expect(failed.last_status).toBeNull();
      } finally {
        deliveries.lookup = undefined;
      }
    }
    expect(hooks.connections).toBe(0);

    // An endpoint whose events keep being refused is turned off: its owner's e-mail names no address either.
    const { webhook: internal } = await addEndpoint(client, `https://vault.example.net:${port}/hook`, [
      'credits.changed',
    ]);
    deliveries.lookup = resolvesTo('10.9.8.7');
    try {
      const id = '7a1c1b7e-1d2a-4b3c-8d4e-5f6a7b8c9d0f';
      await database.query(
        `insert into webhook_deliveries (id, endpoint_id, user_id, order_key, event_id, type, payload, created_at,
                                         occurred_at, next_attempt_at)
         values ($1, $2, $3, 'credits:internal', $1, 'credits.changed', '{}', now(), now(), now())`,
        [id, internal.id, user.id],
      );
      // As sent (the outbox forgets a message's text once it is sent).
      const mail = await smtp.waitFor(user.email, /webhook/i, 30_000);
      expect(mail.text).toContain('Refused: vault.example.net is not a public address');
      expect(JSON.stringify(mail)).not.toContain('10.9.8.7');
      expect(JSON.stringify(await deliveriesOf(client, internal.id))).not.toContain('10.9.8.7');
    } finally {
      deliveries.lookup = undefined;
    }
    expect(hooks.connections).toBe(0);

    // Without the allow-list (production): this machine's receiver is never reached, however it is named.
    const strict = new WebhookSender({ WEBHOOK_ALLOWED_HOSTS: [], WEBHOOK_TIMEOUT_MS: 1000 });
    try {
      const tries: Array<[string, LookupFunction | undefined, RegExp]> = [
        [`http://127.0.0.1:${port}/hook`, undefined, /Only https:\/\/ endpoints/],
        [`https://127.0.0.1:${port}/hook`, undefined, /^Refused: 127\.0\.0\.1 is not a public address$/],
        [`https://[::ffff:127.0.0.1]:${port}/hook`, undefined, /not a public address/],
        [`https://2130706433:${port}/hook`, undefined, /not a public address/],
        [
          `https://hooks.example.net:${port}/hook`,
          resolvesTo('127.0.0.1'),
          /^Refused: hooks\.example\.net is not a public address$/,
        ],
      ];
      for (const [url, lookup, error] of tries) {
        const outcome = await strict.send(url, '{}', 'whsec_x', {}, lookup);
        expect([outcome.ok, outcome.status], url).toEqual([false, null]);
        expect(outcome.error, url).toMatch(error);
      }
    } finally {
      strict.onModuleDestroy();
    }
    expect(hooks.connections).toBe(0);
  });

  // Last: what every test above received.
  it('delivered only what the API document describes: each event in its webhooks section, signed as it says', async () => {
    const check = await ApiDocumentCheck.for(stack.baseUrl);
    const received = receivers.flatMap((r) => r.received).filter((r) => r.path !== '/elsewhere');
    expect(received.length).toBeGreaterThan(10);
    expect(new Set(received.map((r) => r.body.type)).size).toBeGreaterThan(3);
    const problems = received.flatMap((r) => check!.deliveryProblems(r.headers['seatlink-signature'] as string, r.raw));
    expect(problems).toEqual([]);
    // And the check is not blind: a body with a field the document does not name, or none of its own, fails it.
    const [one] = received;
    const header = one!.headers['seatlink-signature'] as string;
    expect(check!.deliveryProblems(header, JSON.stringify({ ...one!.body, extra: 1 }))).not.toEqual([]);
    expect(check!.deliveryProblems(header, JSON.stringify({ ...one!.body, data: {} }))).not.toEqual([]);
    expect(check!.deliveryProblems(undefined, one!.raw)).not.toEqual([]);
  });
});
