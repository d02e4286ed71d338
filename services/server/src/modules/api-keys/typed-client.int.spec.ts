import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSeatlinkClient, SIGNATURE_HEADER, type WebhookEvent } from '@seatlink/client';
import type { CreatedApiKeyResponse } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLinkHolder } from '../../testing/link-holder.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { simControl, startSim } from '../../testing/wallet-fixture.js';

/**
 * The typed client an integrator generates from the API document (services/client: openapi-typescript and
 * openapi-fetch over services/client/openapi.json), driven with an API key against the running server, as a box
 * office's system would: every path, parameter, body and answer typed by the document, no cast.
 */
describe('the typed client of the API document, with an API key', () => {
  let sim: WalletSimApp;
  let control: ReturnType<typeof simControl>;
  let stack: TestStack;
  let admin: ApiClient;

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    control = simControl(url);
    stack = await startTestStack({
      env: { WALLET_PROVIDER_URL: url, WALLET_SYNC_FOLLOW_UPS_MS: '', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    });
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('lists tickets by pages and by changes, distributes, edits, bulk edits, reads clicks, exports and recalls', async () => {
    const holder = await newLinkHolder(stack, admin, control, { tickets: 3, credits: 100 });
    const made = await holder.client.request('POST', '/v1/me/api-keys', {
      name: 'Box office',
      scopes: ['tickets:read', 'links:read', 'links:write', 'notifications:read'],
    });
    const api = createSeatlinkClient({
      baseUrl: stack.baseUrl,
      apiKey: (made.body as unknown as CreatedApiKeyResponse).key,
    });

    // Pages of one ticket, in first-seen order, then the version the first page stood at.
    const first = await api.GET('/v1/tickets', { params: { query: { limit: 2 } } });
    expect(first.error).toBeUndefined();
    expect(first.data!.tickets).toHaveLength(2);
    const rest = await api.GET('/v1/tickets', {
      params: { query: { limit: 2, after: first.data!.next_cursor! } },
    });
    expect(rest.data!.tickets).toHaveLength(1);
    expect(rest.data!.next_cursor).toBeNull();
    const ids = [...first.data!.tickets, ...rest.data!.tickets].map((t) => t.id);
    expect(new Set(ids)).toEqual(new Set(holder.tickets.map((t) => t.id)));

    const distributed = await api.POST('/v1/tickets/distribute', {
      body: { ticket_ids: [ids[0]!, ids[1]!], max_clicks: 3 },
      headers: { 'Idempotency-Key': 'order-2001' },
    });
    expect(distributed.error).toBeUndefined();
    const [one, two] = distributed.data!.distributions;
    expect(one!.link).toContain('/l/');

    // What changed since the first page: the two tickets given links, nothing else.
    const changed = await api.GET('/v1/tickets', { params: { query: { since: first.data!.version } } });
    expect(changed.data!.tickets.map((t) => t.distribution?.distribution_id).sort()).toEqual(
      [one!.distribution_id, two!.distribution_id].sort(),
    );

    const edited = await api.PATCH('/v1/distributions/{id}', {
      params: { path: { id: one!.distribution_id } },
      body: { label: 'for Sam' },
    });
    expect(edited.error).toBeUndefined();
    expect(edited.data!.distribution.label).toBe('for Sam');

    const bulk = await api.PATCH('/v1/distributions', {
      body: { distribution_ids: [one!.distribution_id, two!.distribution_id], max_clicks: 5 },
    });
    expect(bulk.data!.updated.map((u) => u.distribution.max_clicks)).toEqual([5, 5]);
    expect(bulk.data!.failed).toEqual([]);

    const clicks = await api.GET('/v1/distributions/{id}/clicks', {
      params: { path: { id: one!.distribution_id } },
    });
    expect(clicks.error).toBeUndefined();
    expect(clicks.data!).toMatchObject({ distribution_id: one!.distribution_id, clicks: 0, minutes: [] });

    const csv = await api.GET('/v1/links/export.csv', { parseAs: 'text' });
    expect(csv.response.headers.get('content-type')).toContain('text/csv');
    expect(csv.data).toContain(one!.distribution_id);

    const recalled = await api.POST('/v1/distributions/{id}/recall', {
      params: { path: { id: two!.distribution_id } },
    });
    expect(recalled.error).toBeUndefined();
    // A refusal is typed as the document's error: its code and message.
    const again = await api.POST('/v1/distributions/{id}/recall', {
      params: { path: { id: two!.distribution_id } },
    });
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ code: 'ALREADY_RECALLED', statusCode: 409 });

    await subscriptionsCaughtUp(stack.app);
    const bell = await api.GET('/v1/notifications', { params: { query: { limit: 5 } } });
    expect(bell.error).toBeUndefined();
    expect(bell.data!.unread).toBe(bell.data!.notifications.filter((n) => !n.read).length);
  });

  it('wires up a webhook endpoint: adds, lists, changes, tests, reads deliveries, resends, rolls, deletes', async () => {
    // The box office's receiver: what arrives, typed as the document's webhook events.
    const arrived: Array<{ headers: IncomingHttpHeaders; raw: string; event: WebhookEvent }> = [];
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        arrived.push({ headers: req.headers, raw, event: JSON.parse(raw) as WebhookEvent });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const holder = await newLinkHolder(stack, admin, control, { tickets: 1, credits: 10 });
      const made = await holder.client.request('POST', '/v1/me/api-keys', {
        name: 'Wiring',
        scopes: ['webhooks:read', 'webhooks:write'],
      });
      const api = createSeatlinkClient({
        baseUrl: stack.baseUrl,
        apiKey: (made.body as unknown as CreatedApiKeyResponse).key,
      });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/seatlink`;

      const added = await api.POST('/v1/me/webhooks', { body: { url, events: ['link.claimed'] } });
      expect(added.error).toBeUndefined();
      const { webhook, secret } = added.data!;
      expect(secret.startsWith(webhook.secret_prefix)).toBe(true);
      const listed = await api.GET('/v1/me/webhooks');
      expect(listed.data!.webhooks.map((w) => [w.id, w.events])).toEqual([[webhook.id, ['link.claimed']]]);

      const changed = await api.PATCH('/v1/me/webhooks/{id}', {
        params: { path: { id: webhook.id } },
        body: { events: ['link.claimed', 'link.recalled'] },
      });
      expect(changed.data!.webhook.events).toEqual(['link.claimed', 'link.recalled']);

      const tested = await api.POST('/v1/me/webhooks/{id}/test', { params: { path: { id: webhook.id } } });
      expect(tested.response.status).toBe(202);
      expect(tested.data!.delivery.type).toBe('webhook.test');
      const delivered = async (id: string) => {
        for (let i = 0; i < 100; i++) {
          const log = await api.GET('/v1/me/webhooks/{id}/deliveries', { params: { path: { id: webhook.id } } });
          const found = log.data!.deliveries.find((d) => d.id === id);
          if (found?.status === 'delivered') return found;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`delivery ${id} not delivered`);
      };
      const first = await delivered(tested.data!.delivery.id);
      expect(first.last_status).toBe(200);
      // It arrived signed with the secret shown once, and typed by its `type`.
      const got = arrived.find((a) => a.event.id === first.event_id)!;
      const header = String(got.headers[SIGNATURE_HEADER.toLowerCase()]);
      const t = /t=(\d+)/.exec(header)![1]!;
      const expected = createHmac('sha256', secret).update(`${t}.${got.raw}`).digest('hex');
      expect(header).toContain(`v1=${expected}`);
      const event = got.event;
      if (event.type !== 'webhook.test') throw new Error(`a ${event.type} arrived`);
      expect(event.data.endpoint_id).toBe(webhook.id);

      const resent = await api.POST('/v1/me/webhooks/{id}/deliveries/{deliveryId}/resend', {
        params: { path: { id: webhook.id, deliveryId: first.id } },
      });
      expect(resent.response.status).toBe(202);
      expect((await delivered(resent.data!.delivery.id)).event_id).toBe(first.event_id);

      const rolled = await api.POST('/v1/me/webhooks/{id}/secret', { params: { path: { id: webhook.id } } });
      expect(rolled.error).toBeUndefined();
      expect(rolled.data!.secret).not.toBe(secret);

      const removed = await api.DELETE('/v1/me/webhooks/{id}', { params: { path: { id: webhook.id } } });
      expect(removed.data!.message).toBe('Webhook endpoint deleted');
      const gone = await api.GET('/v1/me/webhooks/{id}/deliveries', { params: { path: { id: webhook.id } } });
      expect(gone.response.status).toBe(404);
      expect(gone.error).toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
