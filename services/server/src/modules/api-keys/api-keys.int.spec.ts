import type { ApiKeysResponse, AuditEntry, CreatedApiKeyResponse, DistributeResponse } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { newLinkHolder } from '../../testing/link-holder.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
import { simControl, startSim } from '../../testing/wallet-fixture.js';
import { SubscriptionHostService } from '../../infra/subscriptions/subscriptions.module.js';

/** Calls made the way another system makes them: a bearer key, no cookie, no Origin. */
function withKey(baseUrl: string, key: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { text };
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
}

describe('API keys: scoped, shown once, limited per key, revoked at once, named in the audit log', () => {
  let sim: WalletSimApp;
  let control: ReturnType<typeof simControl>;
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;

  const create = async (client: ApiClient, name: string, scopes: string[]) => {
    const res = await client.request('POST', '/v1/me/api-keys', { name, scopes });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as unknown as CreatedApiKeyResponse;
  };
  const signedIn = async () => {
    const created = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    await client.login(created.email, created.password);
    return { ...created, client };
  };

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    control = simControl(url);
    stack = await startTestStack({
      env: {
        WALLET_PROVIDER_URL: url,
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        THROTTLE_API_KEY: '20',
        STEP_UP_MINUTES: '10',
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      },
    });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('makes a key shown once, kept as a hash, listed by its prefix', async () => {
    const user = await signedIn();
    const made = await create(user.client, '  Box office  ', ['links:write', 'tickets:read', 'links:write']);
    expect(made.key).toMatch(/^sl_live_[A-Za-z0-9_-]{43}$/);
    expect(made.api_key).toMatchObject({
      name: 'Box office',
      scopes: ['tickets:read', 'links:write'],
      prefix: made.key.slice(0, 12),
      last_used_at: null,
    });
    const listed = (await user.client.request('GET', '/v1/me/api-keys')).body as unknown as ApiKeysResponse;
    expect(listed.api_keys).toEqual([made.api_key]);
    expect(JSON.stringify(listed)).not.toContain(made.key);
    const [leaked] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where data::text like $1`,
      [`%${made.key.slice(8)}%`],
    );
    expect(leaked!.n).toBe(0);
  });

  it('answers the calls of its scopes only; never an admin or cookie-only call; RateLimit-* on every answer', async () => {
    const user = await signedIn();
    const reader = withKey(stack.baseUrl, (await create(user.client, 'Reader', ['tickets:read'])).key);
    const tickets = await reader('GET', '/v1/tickets');
    expect(tickets.status).toBe(200);
    expect(tickets.body).toHaveProperty('tickets');
    expect(tickets.headers.get('ratelimit-limit')).toBe('20');
    expect(Number(tickets.headers.get('ratelimit-remaining'))).toBe(19);
    expect(Number(tickets.headers.get('ratelimit-reset'))).toBeGreaterThan(0);

    const refused: Array<[string, string, unknown, number, string]> = [
      ['POST', '/v1/tickets/distribute', { ticket_ids: [] }, 403, 'API_KEY_SCOPE'],
      ['GET', '/v1/links/export.csv', undefined, 403, 'API_KEY_SCOPE'],
      ['GET', '/v1/me', undefined, 403, 'API_KEY_NOT_ALLOWED'],
      ['GET', '/v1/me/api-keys', undefined, 403, 'API_KEY_NOT_ALLOWED'],
      ['POST', '/v1/me/api-keys', { name: 'More', scopes: ['links:write'] }, 403, 'API_KEY_NOT_ALLOWED'],
      ['GET', '/v1/admin/users', undefined, 403, 'API_KEY_NOT_ALLOWED'],
      ['GET', '/v1/accounts', undefined, 403, 'API_KEY_NOT_ALLOWED'],
    ];
    for (const [method, path, body, status, code] of refused) {
      const res = await reader(method, path, body);
      expect([res.status, res.body.code], `${method} ${path}`).toEqual([status, code]);
    }
    expect((await reader('POST', '/v1/tickets/distribute', { ticket_ids: [] })).body.message).toBe(
      'This API key does not have the scope this call needs: links:write',
    );
    // An admin's key is no way into the admin calls either.
    const adminKey = withKey(stack.baseUrl, (await create(admin, 'Admin tool', ['tickets:read'])).key);
    expect((await adminKey('GET', '/v1/admin/users')).body.code).toBe('API_KEY_NOT_ALLOWED');
    // Nothing was made by the refused calls.
    expect(
      ((await user.client.request('GET', '/v1/me/api-keys')).body as unknown as ApiKeysResponse).api_keys,
    ).toHaveLength(1);
  });

  it('opens the bell and its e-mail settings to keys with the notification scopes, and to no other key', async () => {
    const user = await signedIn();
    const reader = withKey(stack.baseUrl, (await create(user.client, 'Bell', ['notifications:read'])).key);
    const writer = withKey(stack.baseUrl, (await create(user.client, 'Bell writer', ['notifications:write'])).key);
    const other = withKey(stack.baseUrl, (await create(user.client, 'Tickets', ['tickets:read'])).key);

    const page = await reader('GET', '/v1/notifications?limit=5');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ notifications: [], unread: 0 });
    const preferences = await reader('GET', '/v1/me/notification-preferences');
    expect(preferences.status).toBe(200);
    expect(preferences.body).toHaveProperty('email.link_claimed');

    // Reading is not writing, and the other way round; a key of other scopes gets neither.
    expect((await reader('POST', '/v1/notifications/read', { all: true })).body.code).toBe('API_KEY_SCOPE');
    expect((await writer('GET', '/v1/notifications')).body.code).toBe('API_KEY_SCOPE');
    expect((await other('GET', '/v1/notifications')).body).toMatchObject({
      code: 'API_KEY_SCOPE',
      message: 'This API key does not have the scope this call needs: notifications:read',
    });

    const set = await writer('PUT', '/v1/me/notification-preferences', { email: { link_claimed: 'daily' } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ email: { link_claimed: 'daily' } });
    // The session sees what the key set: the same user's settings.
    const seen = await user.client.request('GET', '/v1/me/notification-preferences');
    expect(seen.body).toMatchObject({ email: { link_claimed: 'daily' } });
    // Bad input from a key is refused like a session's, and changes nothing.
    const bad = await writer('PUT', '/v1/me/notification-preferences', { email: { link_claimed: 'hourly\u0000' } });
    expect(bad.status).toBe(400);
    expect((await user.client.request('GET', '/v1/me/notification-preferences')).body).toMatchObject({
      email: { link_claimed: 'daily' },
    });
    expect((await writer('POST', '/v1/notifications/read', { all: true })).status).toBe(200);
  });

  it('lets a key with the webhook scopes wire up an endpoint: add, change, read deliveries, roll, delete', async () => {
    const user = await signedIn();
    const writer = withKey(
      stack.baseUrl,
      (await create(user.client, 'Wiring', ['webhooks:read', 'webhooks:write'])).key,
    );
    const reader = withKey(stack.baseUrl, (await create(user.client, 'Watcher', ['webhooks:read'])).key);
    const added = await writer('POST', '/v1/me/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['link.claimed'] });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const endpoint = added.body.webhook as { id: string };
    expect(String(added.body.secret)).toMatch(/^whsec_/);
    // Reading is open to the reader; changing is not.
    const listed = await reader('GET', '/v1/me/webhooks');
    expect((listed.body.webhooks as Array<{ id: string }>).map((e) => e.id)).toEqual([endpoint.id]);
    expect((await reader('GET', `/v1/me/webhooks/${endpoint.id}/deliveries`)).status).toBe(200);
    expect((await reader('DELETE', `/v1/me/webhooks/${endpoint.id}`)).body.code).toBe('API_KEY_SCOPE');
    const changed = await writer('PATCH', `/v1/me/webhooks/${endpoint.id}`, {
      events: ['link.claimed', 'link.recalled'],
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await writer('POST', `/v1/me/webhooks/${endpoint.id}/secret`)).status).toBe(200);
    // Out-of-shape input from a key is refused as a session's is, and nothing is added.
    const bad = await writer('POST', '/v1/me/webhooks', { url: 'http://127.0.0.1/\u0000', events: ['nope'] });
    expect(bad.status).toBe(400);
    expect((await writer('DELETE', `/v1/me/webhooks/${endpoint.id}`)).status).toBe(200);
    expect(((await user.client.request('GET', '/v1/me/webhooks')).body.webhooks as unknown[]).length).toBe(0);
    // A key of other scopes reaches none of it.
    const other = withKey(stack.baseUrl, (await create(user.client, 'Tickets only', ['tickets:read'])).key);
    expect((await other('GET', '/v1/me/webhooks')).body.code).toBe('API_KEY_SCOPE');
  });

  it('refuses a token that is no live key with 401, and bodies out of shape with 400', async () => {
    const user = await signedIn();
    for (const token of [
      '',
      'sl_live_short',
      `sl_live_${'A'.repeat(43)}`,
      'x'.repeat(10_000),
      'sl_test_' + 'B'.repeat(43),
    ]) {
      const res = await withKey(stack.baseUrl, token)('GET', '/v1/tickets');
      expect(res.status, token.slice(0, 20)).toBe(401);
    }
    const unknown = await withKey(stack.baseUrl, `sl_live_${'A'.repeat(43)}`)('GET', '/v1/tickets');
    expect(unknown.body).toMatchObject({
      code: 'API_KEY_INVALID',
      message: 'This API key is not valid: it is unknown or revoked',
    });
    for (const body of [
      {},
      { name: 'A', scopes: [] },
      { name: 'A', scopes: ['admin'] },
      { name: 'A', scopes: 'links:write' },
      { name: '', scopes: ['links:read'] },
      { name: 'A\u0000', scopes: ['links:read'] },
      { name: '\u202Eevil', scopes: ['links:read'] },
      { name: 'x'.repeat(61), scopes: ['links:read'] },
      { name: 'A', scopes: ['links:read'], extra: true },
      { name: { deep: { er: [1] } }, scopes: ['links:read'] },
    ]) {
      const res = await user.client.request('POST', '/v1/me/api-keys', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    expect((await user.client.request('DELETE', '/v1/me/api-keys/not-a-key')).status).toBe(404);
    expect(((await user.client.request('GET', '/v1/me/api-keys')).body as unknown as ApiKeysResponse).api_keys).toEqual(
      [],
    );
  });

  it('makes and recalls links with a key; the audit log names the key; a revoked key is refused at once', async () => {
    const holder = await newLinkHolder(stack, admin, control, { tickets: 2, credits: 50 });
    const made = await create(holder.client, 'Shop integration', ['links:write', 'links:read', 'tickets:read']);
    const call = withKey(stack.baseUrl, made.key);
    const distributed = await call(
      'POST',
      '/v1/tickets/distribute',
      { ticket_ids: [holder.tickets[0]!.id], max_clicks: 2 },
      { 'idempotency-key': 'order-1001' },
    );
    expect(distributed.status, JSON.stringify(distributed.body)).toBe(200);
    const link = (distributed.body as unknown as DistributeResponse).distributions[0]!;
    // The order system retries: the same link, no second charge.
    const retried = await call(
      'POST',
      '/v1/tickets/distribute',
      { ticket_ids: [holder.tickets[0]!.id], max_clicks: 2 },
      { 'idempotency-key': 'order-1001' },
    );
    expect((retried.body as unknown as DistributeResponse).distributions[0]!.distribution_id).toBe(
      link.distribution_id,
    );
    const csv = await call('GET', '/v1/links/export.csv');
    expect(csv.status).toBe(200);
    expect(String(csv.body.text)).toContain(link.distribution_id);
    const recalled = await call('POST', `/v1/distributions/${link.distribution_id}/recall`);
    expect(recalled.status, JSON.stringify(recalled.body)).toBe(200);

    await subscriptionsCaughtUp(stack.app);
    const audits = (await admin.request('GET', `/v1/admin/users/${holder.id}/audits`)).body.audits as AuditEntry[];
    expect(audits.map((a) => [a.event_type, a.event_data.api_key])).toEqual(
      expect.arrayContaining([
        ['DISTRIBUTE', 'Shop integration'],
        ['TICKET_RECALLED', 'Shop integration'],
      ]),
    );
    const [used] = ((await holder.client.request('GET', '/v1/me/api-keys')).body as unknown as ApiKeysResponse)
      .api_keys;
    expect(used!.last_used_at).not.toBeNull();

    // Revoked: the answer means it, on the very next call; someone else's revoke of it is a 404.
    const stranger = await signedIn();
    expect((await stranger.client.request('DELETE', `/v1/me/api-keys/${made.api_key.id}`)).status).toBe(404);
    const revoked = await holder.client.request('DELETE', `/v1/me/api-keys/${made.api_key.id}`);
    expect(revoked.body).toEqual({ message: 'API key revoked' });
    expect((await call('GET', '/v1/tickets')).body.code).toBe('API_KEY_INVALID');
    expect((await holder.client.request('DELETE', `/v1/me/api-keys/${made.api_key.id}`)).status).toBe(404);
  });

  it('counts calls per key: past its limit 429 with Retry-After, other keys unaffected; a banned user’s key answers 403', async () => {
    const user = await signedIn();
    const busy = withKey(stack.baseUrl, (await create(user.client, 'Busy', ['tickets:read'])).key);
    const calm = withKey(stack.baseUrl, (await create(user.client, 'Calm', ['tickets:read'])).key);
    const answers = await Promise.all(Array.from({ length: 25 }, () => busy('GET', '/v1/tickets')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const limited = answers.find((a) => a.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.body.message).toMatch(/^Too many calls with this API key\. Please try again in \d+ minutes?\.$/);
    expect((await calm('GET', '/v1/tickets')).status).toBe(200);

    expect((await admin.request('POST', `/v1/admin/users/${user.id}/toggle-ban`)).status).toBe(200);
    expect((await calm('GET', '/v1/tickets')).status).toBe(403);
  });

  it('a key acts as its user, never as an admin; making one needs a fresh proof and keeps no answer to replay', async () => {
    const holder = await newLinkHolder(stack, admin, control, { tickets: 1, credits: 10 });
    const link = await holder.client.request('POST', '/v1/tickets/distribute', { ticket_ids: [holder.tickets[0]!.id] });
    const distributionId = (link.body as unknown as DistributeResponse).distributions[0]!.distribution_id;
    // The admin reads the holder's click timeline signed in; their key, with links:read, reads their own only.
    expect((await admin.request('GET', `/v1/distributions/${distributionId}/clicks`)).status).toBe(200);
    const adminKey = withKey(stack.baseUrl, (await create(admin, 'Admin reader', ['links:read'])).key);
    expect((await adminKey('GET', `/v1/distributions/${distributionId}/clicks`)).status).toBe(404);

    // The same Idempotency-Key twice makes two keys: no answer holding a key is kept to be replayed.
    const user = await signedIn();
    const twice = await Promise.all(
      [1, 2].map(() =>
        user.client.request(
          'POST',
          '/v1/me/api-keys',
          { name: 'Retry', scopes: ['tickets:read'] },
          { headers: { 'idempotency-key': 'same-key' } },
        ),
      ),
    );
    expect(twice.map((t) => t.status)).toEqual([201, 201]);
    expect(twice[0]!.body.key).not.toBe(twice[1]!.body.key);
    const [kept] = await database.query<{ n: number }>(
      `select count(*)::int as n from idempotency_keys where body::text like '%sl_live_%'`,
    );
    expect(kept!.n).toBe(0);

    // Long signed in: making a key asks to confirm it is them first.
    await database.query(
      `update sessions set created_at = now() - interval '20 minutes', verified_at = null where user_id = $1`,
      [user.id],
    );
    const asked = await user.client.request('POST', '/v1/me/api-keys', { name: 'Late', scopes: ['tickets:read'] });
    expect([asked.status, asked.body.code]).toEqual([403, 'STEP_UP_REQUIRED']);
  });

  it('holds its limit of 25 keys under 30 requests at once', async () => {
    const user = await signedIn();
    const tries = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        user.client.request('POST', '/v1/me/api-keys', { name: `Key ${i}`, scopes: ['tickets:read'] }),
      ),
    );
    const statuses = tries.map((t) => t.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(25);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    expect(tries.find((t) => t.status === 409)!.body).toMatchObject({ code: 'API_KEY_LIMIT' });
    expect(
      ((await user.client.request('GET', '/v1/me/api-keys')).body as unknown as ApiKeysResponse).api_keys,
    ).toHaveLength(25);
  });

  it('a revoked key stops at the answer, even while the read models are stopped (the last test: it stops them)', async () => {
    const user = await signedIn();
    const made = await create(user.client, 'Stopped', ['tickets:read']);
    const call = withKey(stack.baseUrl, made.key);
    expect((await call('GET', '/v1/tickets')).status).toBe(200);
    await stack.app.get(SubscriptionHostService).host!.stop();
    const revoked = await user.client.request('DELETE', `/v1/me/api-keys/${made.api_key.id}`);
    expect(revoked.status).toBe(200);
    expect((await call('GET', '/v1/tickets')).body.code).toBe('API_KEY_INVALID');
    expect(((await user.client.request('GET', '/v1/me/api-keys')).body as unknown as ApiKeysResponse).api_keys).toEqual(
      [],
    );
  });
});
