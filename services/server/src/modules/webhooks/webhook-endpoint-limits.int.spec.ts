import { randomUUID } from 'node:crypto';
import {
  WEBHOOK_MESSAGES,
  type WebhookDeliveriesResponse,
  type WebhookSecretResponse,
  type WebhooksResponse,
  webhookMoment,
} from '@seatlink/contracts';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { until } from '../../testing/until.js';
import { createVerifiedUser } from '../../testing/users.js';
import { answer, type Arrival, type Behaviour, WebhookReceiver } from '../../testing/webhook-receiver.js';
import { WebhookDeliveries } from './webhook-deliveries.service.js';

/**
 * What keeps one endpoint from taking more than its share, and a secret roll that breaks nothing
 * (docs/reference.md "Webhooks", "Limits and constants"): at most WEBHOOK_ENDPOINT_CONCURRENCY tries at once to one
 * endpoint, across the workers; test events and resends counted per endpoint; a rolled secret's grace; refusals of
 * private addresses that never say where a name led. On the real PostgreSQL and Redis; outcomes only.
 */

/** An endpoint on this machine that counts its open requests, and leaves them unanswered while it hangs. */
class Receiver extends WebhookReceiver {
  hang = false;
  override behave: Behaviour = (got, _req, res) => {
    if (!this.hang) answer(got, res, 200);
  };
}

const stripe = new Stripe('sk_test_verifier');
const CAP = 2;
const LIMIT = 5;

describe('webhooks that scale with the account: a cap per endpoint, counted tests and resends, a secret’s grace', () => {
  let stack: TestStack;
  let database: Database;
  const receivers: Receiver[] = [];

  const receiver = async () => {
    const r = await new Receiver().start();
    receivers.push(r);
    return r;
  };
  const signedIn = async () => {
    const user = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    expect((await client.login(user.email, user.password)).status).toBe(200);
    return { client, id: user.id, email: user.email };
  };
  const addEndpoint = async (client: ApiClient, url: string) => {
    const res = await client.request('POST', '/v1/me/webhooks', { url, events: ['credits.changed'] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as unknown as WebhookSecretResponse;
  };
  const deliveriesOf = async (client: ApiClient, endpointId: string) =>
    (
      (await client.request('GET', `/v1/me/webhooks/${endpointId}/deliveries`))
        .body as unknown as WebhookDeliveriesResponse
    ).deliveries;
  const listed = async (client: ApiClient, endpointId: string) =>
    ((await client.request('GET', '/v1/me/webhooks')).body as unknown as WebhooksResponse).webhooks.find(
      (w) => w.id === endpointId,
    )!;
  /**
   * Deliveries of `keys` order keys, `perKey` each, due now, no job queued (the sweep finds them), as the fan-out
   * writes them; `leaseMs`: leased for that long by a worker that died (no try under way).
   */
  const insertDue = async (
    endpointId: string,
    userId: string,
    keys: string[],
    perKey: number,
    leaseMs: number | null = null,
  ) => {
    const rows = keys.flatMap((key) => Array.from({ length: perKey }, (_, n) => ({ key, id: randomUUID(), n })));
    await database.query(
      `insert into webhook_deliveries (id, endpoint_id, user_id, order_key, event_id, type, payload, created_at,
                                       occurred_at, next_attempt_at, leased_until)
       select id, $2, $3, key, id, 'credits.changed',
              json_build_object('id', id, 'type', 'credits.changed', 'created_at', now(), 'data', json_build_object('n', n))::text,
              now(), now() + n * interval '1 millisecond', now(),
              case when $6::int is null then null else now() + make_interval(secs => $6::int / 1000.0) end
         from unnest($1::uuid[], $4::text[], $5::int[]) as t(id, key, n)`,
      [rows.map((r) => r.id), endpointId, userId, rows.map((r) => r.key), rows.map((r) => r.n), leaseMs],
    );
    return rows.map((r) => r.id);
  };

  beforeAll(async () => {
    stack = await startTestStack({
      env: {
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_BACKOFF_MS: '150',
        // Long enough that an endpoint that never answers holds its connections for the whole of a test.
        WEBHOOK_TIMEOUT_MS: '30000',
        WEBHOOK_SWEEP_MS: '300',
        WEBHOOK_SETTLE_MS: '200',
        WEBHOOK_CONCURRENCY: '8',
        WEBHOOK_ENDPOINT_CONCURRENCY: String(CAP),
        WEBHOOK_DISABLE_AFTER_FAILURES: '100000',
        THROTTLE_WEBHOOK_ENDPOINT: String(LIMIT),
      },
    });
    database = stack.app.get<Database>(DATABASE);
  }, 60_000);
  afterAll(async () => {
    for (const r of receivers) await r.close().catch(() => undefined);
    await stack?.close();
  });

  it('lets a hanging endpoint hold at most its cap of workers: a healthy one’s deliveries all arrive meanwhile', async () => {
    const hanging = await receiver();
    hanging.hang = true;
    const healthy = await receiver();
    const { client, id: userId } = await signedIn();
    const slow = await addEndpoint(client, `${hanging.url}/never`);
    const fine = await addEndpoint(client, `${healthy.url}/fine`);
    // The hanging endpoint's deliveries first (the sweep queues the longest due first): 12 keys, more than the 8
    // workers, each of which would hang until the timeout without the cap.
    const slowKeys = Array.from({ length: 12 }, (_, i) => `credits:slow-${i}`);
    await insertDue(slow.webhook.id, userId, slowKeys, 1);
    const fineIds = await insertDue(
      fine.webhook.id,
      userId,
      Array.from({ length: 8 }, (_, i) => `credits:fine-${i}`),
      3,
    );

    await until('the healthy endpoint’s 24 deliveries', () => fineIds.every((id) => healthy.of(id).length > 0), 60_000);
    // All of them arrived while the hanging endpoint still held its connections: none of its requests has ended.
    expect(hanging.cut).toBe(0);
    expect(hanging.open.size).toBe(CAP);
    expect(hanging.received).toHaveLength(CAP);
    expect(hanging.maxOpen).toBe(CAP);
    expect(healthy.maxOpen).toBeLessThanOrEqual(CAP);
    expect(new Set(fineIds.flatMap((id) => healthy.of(id).map((a) => a.body?.id))).size).toBe(24);

    // Its slots pass from key to key as tries end (here cut off by the endpoint): never more than the cap at once.
    while (new Set(hanging.received.map((a) => a.body?.id)).size < slowKeys.length) {
      const before = hanging.received.length;
      hanging.release();
      await until('the next tries', () => hanging.received.length > before && hanging.open.size === CAP, 30_000);
    }
    expect(hanging.maxOpen).toBe(CAP);
    expect(Math.max(...hanging.received.map((a) => a.openWith))).toBe(CAP);
    expect((await client.request('DELETE', `/v1/me/webhooks/${slow.webhook.id}`)).status).toBe(200);
    hanging.release();
  }, 120_000);

  it('frees the slots of a worker that died mid-try once its leases pass, and delivers the rest', async () => {
    const hooks = await receiver();
    const { client, id: userId } = await signedIn();
    const { webhook } = await addEndpoint(client, `${hooks.url}/dead`);
    // Two tries under way as a worker that died left them: leased, nothing sent, no job. The endpoint is full.
    const stale = await insertDue(webhook.id, userId, ['credits:dead-a', 'credits:dead-b'], 1, 1500);
    const [{ until: leasedUntil } = { until: new Date() }] = await database.query<{ until: Date }>(
      `select max(leased_until) as until from webhook_deliveries where id = any($1::uuid[])`,
      [stale],
    );
    const rest = await insertDue(
      webhook.id,
      userId,
      Array.from({ length: 4 }, (_, i) => `credits:waiting-${i}`),
      1,
    );
    await until(
      'all six delivered',
      async () => (await deliveriesOf(client, webhook.id)).filter((d) => d.status === 'delivered').length === 6,
      30_000,
    );
    // Nothing went while the dead worker's leases held both slots; then each went once.
    const [first] = await database.query<{ at: Date }>(
      `select min(last_attempt_at) as at from webhook_deliveries where endpoint_id = $1`,
      [webhook.id],
    );
    expect(first!.at.getTime()).toBeGreaterThanOrEqual(leasedUntil.getTime());
    for (const id of [...stale, ...rest]) expect(hooks.of(id), id).toHaveLength(1);
    expect(hooks.maxOpen).toBeLessThanOrEqual(CAP);
  }, 60_000);

  it(`counts test events and resends per endpoint: a burst of 12 lets exactly ${LIMIT} through, the rest 429`, async () => {
    const hooks = await receiver();
    const { client } = await signedIn();
    const { webhook } = await addEndpoint(client, `${hooks.url}/burst`);
    const other = await addEndpoint(client, `${hooks.url}/other`);
    // A resend of a delivery that does not exist sends nothing, and counts nothing.
    for (let i = 0; i < 3; i++) {
      const res = await client.request('POST', `/v1/me/webhooks/${webhook.id}/deliveries/${randomUUID()}/resend`);
      expect(res.status).toBe(404);
    }
    const burst = await Promise.all(
      Array.from({ length: 12 }, () => client.request('POST', `/v1/me/webhooks/${webhook.id}/test`)),
    );
    const passed = burst.filter((r) => r.status === 202);
    const refused = burst.filter((r) => r.status === 429);
    expect([passed.length, refused.length]).toEqual([LIMIT, 12 - LIMIT]);
    expect(passed.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort()).toEqual([0, 1, 2, 3, 4]);
    for (const r of [...passed, ...refused]) expect(r.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    for (const r of refused) {
      expect(r.body).toMatchObject({ code: 'RATE_LIMITED', statusCode: 429 });
      expect(r.body.message).toBe('Too many test events and resends to this endpoint. Please try again in 1 minute.');
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(r.body.retryAfterSeconds).toBe(retryAfter);
      expect(r.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    }
    await until('the five delivered', () => hooks.received.length >= LIMIT);
    // The resend shares the count; another endpoint has its own.
    const [sent] = await deliveriesOf(client, webhook.id);
    const resend = await client.request('POST', `/v1/me/webhooks/${webhook.id}/deliveries/${sent!.id}/resend`);
    expect(resend.status).toBe(429);
    expect(resend.headers.get('retry-after')).not.toBeNull();
    expect((await client.request('POST', `/v1/me/webhooks/${other.webhook.id}/test`)).status).toBe(202);
    await until('the other’s test', () => hooks.received.length >= LIMIT + 1);
    expect(await deliveriesOf(client, webhook.id)).toHaveLength(LIMIT);
  });

  it('rolls a secret with a grace: both sign until it ends, the answer, the list and the audit say until when, and a rebuild signs the same', async () => {
    const hooks = await receiver();
    const { client, id: userId } = await signedIn();
    const { webhook, secret: first } = await addEndpoint(client, `${hooks.url}/grace`);
    const signatureOf = (a: Arrival) => String(a.headers['seatlink-signature']);
    const testEvent = async () => {
      const res = await client.request('POST', `/v1/me/webhooks/${webhook.id}/test`);
      expect(res.status).toBe(202);
      const eventId = (res.body.delivery as { event_id: string }).event_id;
      return until('the test event', () => hooks.of(eventId)[0]);
    };

    const asked = Date.now();
    const res = await client.request('POST', `/v1/me/webhooks/${webhook.id}/secret`, { grace_seconds: 3600 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rolled = res.body as unknown as WebhookSecretResponse;
    const until1h = rolled.webhook.previous_secret_until!;
    expect(new Date(until1h).getTime() - asked).toBeGreaterThanOrEqual(3600_000 - 1000);
    expect(new Date(until1h).getTime() - asked).toBeLessThanOrEqual(3600_000 + 60_000);
    expect(rolled.message).toBe(WEBHOOK_MESSAGES.secretRolledGrace.replace('{until}', webhookMoment(until1h)));
    expect(rolled.message).toContain('still signs');
    expect((await listed(client, webhook.id)).previous_secret_until).toBe(until1h);

    const got = await testEvent();
    expect(signatureOf(got)).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const secret of [rolled.secret, first]) {
      expect(stripe.webhooks.constructEvent(got.raw, signatureOf(got), secret).id).toBe(got.body?.id);
    }
    expect(() => stripe.webhooks.constructEvent(got.raw, signatureOf(got), 'whsec_wrong')).toThrow();

    // The audit log says so.
    await subscriptionsCaughtUp(stack.app);
    const [audit] = await database.query<{ event_data: Record<string, unknown> }>(
      `select event_data from audit_entries where user_id = $1 and event_type = 'WEBHOOK_CHANGED'`,
      [userId],
    );
    expect(audit?.event_data).toMatchObject({ secret_rolled: true, previous_secret_until: until1h });

    // The endpoints read model rebuilt from the events: the same grace, and deliveries signed the same.
    await stack.app.get(SubscriptionOperations).reset(['webhook-endpoints']);
    await subscriptionsCaughtUp(stack.app);
    expect(await listed(client, webhook.id)).toEqual(rolled.webhook);
    const again = await testEvent();
    for (const secret of [rolled.secret, first]) {
      expect(stripe.webhooks.constructEvent(again.raw, signatureOf(again), secret).id).toBe(again.body?.id);
    }

    // Rolled again with a grace of a second: the secret it replaces signs for that second, then no more.
    const short = (await client.request('POST', `/v1/me/webhooks/${webhook.id}/secret`, { grace_seconds: 1 }))
      .body as unknown as WebhookSecretResponse;
    await until('the grace over', async () => (await listed(client, webhook.id)).previous_secret_until === null);
    const after = await testEvent();
    expect(signatureOf(after)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(stripe.webhooks.constructEvent(after.raw, signatureOf(after), short.secret).id).toBe(after.body?.id);
    for (const old of [rolled.secret, first]) {
      expect(() => stripe.webhooks.constructEvent(after.raw, signatureOf(after), old)).toThrow();
    }

    // No body (today's callers) or a grace of 0: as before, the old secret stops at once.
    for (const body of [undefined, { grace_seconds: 0 }, {}]) {
      const plain = await client.request('POST', `/v1/me/webhooks/${webhook.id}/secret`, body);
      expect(plain.status, JSON.stringify(body)).toBe(200);
      expect(plain.body.message).toBe(WEBHOOK_MESSAGES.secretRolled);
      expect((plain.body as unknown as WebhookSecretResponse).webhook.previous_secret_until).toBeNull();
    }
  }, 60_000);

  it('refuses a grace out of shape with a 400 that says so, and rolls nothing', async () => {
    const { client } = await signedIn();
    const { webhook } = await addEndpoint(client, 'http://127.0.0.1:9/refused');
    const path = `/v1/me/webhooks/${webhook.id}/secret`;
    const refused: Array<[unknown, string | undefined]> = [
      [{ grace_seconds: -1 }, undefined],
      [{ grace_seconds: 86_401 }, undefined],
      [{ grace_seconds: 1.5 }, undefined],
      [{ grace_seconds: '3600' }, undefined],
      [{ grace_seconds: null }, undefined],
      [{ grace_seconds: 1e21 }, undefined],
      [{ grace_seconds: Number.MAX_SAFE_INTEGER + 2 }, undefined],
      [{ grace_seconds: [3600] }, undefined],
      [{ grace_seconds: { seconds: 3600 } }, undefined],
      [{ grace_seconds: '\u0000' }, undefined],
      [undefined, '{"grace_seconds": 1e400}'],
      [undefined, '{"grace_seconds": -0.000001}'],
      [undefined, '{"grace_seconds": 99999999999999999999999999999}'],
    ];
    for (const [body, raw] of refused) {
      const res = await client.request('POST', path, body, raw === undefined ? {} : { raw });
      expect(res.status, raw ?? JSON.stringify(body)).toBe(400);
      expect(res.body.message, raw ?? JSON.stringify(body)).toContain(WEBHOOK_MESSAGES.grace);
    }
    // Not JSON at all, or more than asked for.
    for (const raw of ['{"grace_seconds": 3600}\u0000', '\u0000', '{"grace_seconds": 3600, "secret": "mine"}']) {
      const res = await client.request('POST', path, undefined, { raw });
      expect(res.status, JSON.stringify(raw)).toBe(400);
    }
    expect((await listed(client, webhook.id)).secret_prefix).toBe(webhook.secret_prefix);
    expect(
      (
        await database.query(`select 1 from events where type = 'WebhookSecretRolled' and data->>'endpointId' = $1`, [
          webhook.id,
        ])
      ).length,
    ).toBe(0);
  });

  it('says a name that resolves to a private address is "not a public address", never where it led', async () => {
    const hooks = await receiver();
    const deliveries = stack.app.get(WebhookDeliveries);
    const { client, id: userId } = await signedIn();
    const port = new URL(hooks.url).port;
    const { webhook } = await addEndpoint(client, `https://internal.example.net:${port}/hook`);
    deliveries.lookup = ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) =>
      options.all ? cb(null, [{ address: '10.20.30.40', family: 4 }]) : cb(null, '10.20.30.40', 4)) as never;
    try {
      expect((await client.request('POST', `/v1/me/webhooks/${webhook.id}/test`)).status).toBe(202);
      await insertDue(webhook.id, userId, ['credits:internal'], 1);
      const log = await until('both refused', async () => {
        const now = await deliveriesOf(client, webhook.id);
        return now.length === 2 && now.every((d) => d.attempts > 0) ? now : undefined;
      });
      for (const d of log) {
        expect(d.last_error).toBe('Refused: internal.example.net is not a public address');
        expect(JSON.stringify(d)).not.toContain('10.20.30.40');
      }
    } finally {
      deliveries.lookup = undefined;
    }
    expect(hooks.received).toHaveLength(0);
  });
});
