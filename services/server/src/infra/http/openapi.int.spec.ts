import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { routes, WEBHOOK_EVENT_TYPES, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TEST_EVENT } from '@seatlink/contracts';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../../testing/test-app.js';
import type { OpenApiDocument } from './openapi.js';

describe('/docs: the OpenAPI document of every call, from the controllers and their zod schemas', () => {
  let stack: TestStack;
  let document: OpenApiDocument;

  beforeAll(async () => {
    stack = await startTestStack();
    const res = await fetch(`${stack.baseUrl}/docs/json`);
    expect(res.status).toBe(200);
    document = (await res.json()) as OpenApiDocument;
  }, 60_000);
  afterAll(async () => stack?.close());

  it('lists every call the web app makes, with its method', () => {
    expect(document.openapi).toBe('3.1.0');
    for (const [name, route] of Object.entries(routes)) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(document.paths[path]?.[route.method.toLowerCase()], `${name}: ${route.method} ${path}`).toBeDefined();
    }
  });

  it('describes bodies, path and query parameters from the schemas the server validates with', () => {
    const topup = document.paths['/v1/topup']!.post!;
    const body = topup.requestBody!.content['application/json'].schema as {
      properties: Record<string, { type?: string; minimum?: number; maximum?: number }>;
      required: string[];
    };
    expect(body.required).toEqual(expect.arrayContaining(['payment_id', 'amount', 'email', 'billing_info']));
    expect(body.properties.amount).toMatchObject({ type: 'integer', minimum: 5, maximum: 10_000 });
    const audits = document.paths['/v1/admin/users/{id}/audits']!.get!;
    expect(audits.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['path:id', 'query:limit', 'query:offset', 'query:event_type']),
    );
    expect(audits.summary).toContain('(admins)');
    expect(audits.parameters.find((p) => p.name === 'id')!.schema).toMatchObject({ format: 'uuid' });
  });

  it('marks the public calls as needing no session, and the rest as needing the session cookie', () => {
    expect(document.components.securitySchemes.session).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: 'seatlink_session',
    });
    const claim = document.paths['/v1/links/{code}/claim']!.post!;
    expect(claim.security).toEqual([]);
    // Served by Fastify itself (not a controller), described from its own definition all the same.
    expect(claim.parameters.map(({ name, in: where, required }) => ({ name, where, required }))).toEqual([
      { name: 'code', where: 'path', required: true },
      { name: 'Idempotency-Key', where: 'header', required: false },
    ]);
    expect(claim.parameters[0]!.schema).toMatchObject({ type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' });
    expect(Object.keys(claim.responses).sort()).toEqual(['200', '4XX', '500', '503']);
    // Its optional `{ pin }` body and its Idempotency-Key, which it honours where it counts the click.
    expect(claim.requestBody).toMatchObject({ required: false });
    expect(JSON.stringify(claim.requestBody)).toContain('"pin"');
    expect(document.paths['/v1/payments/webhook']!.post!.security).toEqual([]);
    expect(document.paths['/v1/me']!.get!.security).toBeUndefined();
  });

  it('documents the bearer API keys and the scope each call open to them needs; admin calls take none', () => {
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.info.description).toContain('Authorization: Bearer sl_live_');
    expect(document.paths['/v1/tickets/distribute']!.post!.security).toEqual([
      { session: [] },
      { apiKey: ['links:write'] },
    ]);
    expect(document.paths['/v1/tickets']!.get!.security).toEqual([{ session: [] }, { apiKey: ['tickets:read'] }]);
    expect(document.paths['/v1/links/export.csv']!.get!.security).toEqual([
      { session: [] },
      { apiKey: ['links:read'] },
    ]);
    expect(document.paths['/v1/admin/users']!.get!.security).toBeUndefined();
    expect(document.paths['/v1/me/api-keys']!.post!.security).toBeUndefined();
  });

  it('names every operation once (operationId), tags it, and marks the old path of account tickets deprecated', () => {
    const operations = Object.values(document.paths).flatMap((ops) => Object.values(ops));
    const ids = operations.map((op) => op.operationId);
    expect(ids.every((id) => /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.every((op) => op.tags.length === 1)).toBe(true);
    expect(document.paths['/v1/tickets']!.get!.operationId).toBe('accountsTickets');
    const current = document.paths['/v1/accounts/{id}/tickets']!.get!;
    const old = document.paths['/accounts/{id}/tickets']!.get!;
    expect(current.deprecated).toBeUndefined();
    expect(old).toMatchObject({ deprecated: true, operationId: `${current.operationId}Deprecated` });
  });

  it('documents the headers: Idempotency-Key where a change takes one, RateLimit-* and 429 where a key may call', () => {
    const distribute = document.paths['/v1/tickets/distribute']!.post!;
    expect(distribute.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
    );
    expect(distribute.responses['200']).toMatchObject({
      headers: {
        'Idempotency-Replayed': { $ref: '#/components/headers/Idempotency-Replayed' },
        'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
      },
    });
    expect(distribute.responses['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
    expect(distribute.responses['4XX']).toEqual({ $ref: '#/components/responses/Error' });
    // Reads take no key; sign-in ignores one (its answer is not all it does); session-only calls have no 429.
    expect(document.paths['/v1/tickets']!.get!.parameters.map((p) => p.name)).not.toContain('Idempotency-Key');
    expect(document.paths['/v1/auth']!.post!.parameters.map((p) => p.name)).not.toContain('Idempotency-Key');
    expect(document.paths['/v1/me/api-keys']!.post!.responses['429']).toBeUndefined();
    expect(document.components.responses.RateLimited).toMatchObject({
      headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
    });
    // The error body names the details some refusals carry.
    expect(Object.keys(document.components.schemas.Error!.properties as object)).toEqual(
      expect.arrayContaining(['message', 'code', 'statusCode', 'error', 'method', 'passkey', 'balance', 'failed']),
    );
  });

  it('describes each success body by a named schema of the contracts', () => {
    const operations = Object.values(document.paths).flatMap((ops) => Object.values(ops));
    const undescribed = operations
      .filter((op) => Object.entries(op.responses).every(([status, r]) => !status.startsWith('2') || !('content' in r)))
      .map((op) => op.operationId);
    expect(undescribed).toEqual([]);
    expect(document.paths['/v1/tickets']!.get!.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/TicketsResponse' } } },
    });
    // Named parts are components of their own, referenced where they are used.
    expect(document.components.schemas.TicketsResponse).toMatchObject({
      properties: {
        tickets: { items: { $ref: '#/components/schemas/Ticket' } },
        version: { type: 'string' },
        next_cursor: { type: ['string', 'null'] },
      },
      additionalProperties: false,
    });
  });

  it('lists each webhook event as the POST an endpoint receives: its body, and the signature header', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT].sort());
    const claimed = document.webhooks['link.claimed']!.post;
    expect(claimed).toMatchObject({
      operationId: 'webhookEventLinkClaimed',
      tags: ['Webhook events'],
      requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/LinkClaimedEvent' } } } },
    });
    expect(claimed.parameters).toEqual([
      expect.objectContaining({ name: WEBHOOK_SIGNATURE_HEADER, in: 'header', required: true }),
    ]);
    const event = document.components.schemas.LinkClaimedEvent as {
      required: string[];
      properties: { type: unknown; data: { properties: Record<string, { deprecated?: boolean }>; required: string[] } };
    };
    expect(event.required).toEqual(['id', 'type', 'created_at', 'data']);
    expect(event.properties.type).toMatchObject({ const: 'link.claimed' });
    // A link is named by distribution_id, as in the API; link_id stays, deprecated, for one version.
    expect(event.properties.data.required).toEqual(expect.arrayContaining(['distribution_id', 'link_id']));
    expect(event.properties.data.properties.link_id!.deprecated).toBe(true);
    expect(event.properties.data.properties.distribution_id!.deprecated).toBeUndefined();
    // The webhooks' endpoints themselves answer named bodies too.
    expect(document.paths['/v1/me/webhooks/{id}/deliveries']!.get!.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookDeliveriesResponse' } } },
    });
  });

  it('declares 202 beside the status of a change whose answer may be pending, with the same body', () => {
    const distribute = document.paths['/v1/tickets/distribute']!.post!;
    expect(distribute.responses['202']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/DistributeResponse' } } },
    });
    expect((distribute.responses['202'] as { headers?: unknown }).headers).toEqual(
      (distribute.responses['200'] as { headers?: unknown }).headers,
    );
    // Reads are never pending; a change whose answer has no `pending` is never 202.
    expect(document.paths['/v1/tickets']!.get!.responses['202']).toBeUndefined();
    expect(document.paths['/v1/notifications/read']!.post!.responses['202']).toBeUndefined();
  });

  it('answers the CSV exports as text/csv', () => {
    for (const path of ['/v1/links/export.csv', '/v1/admin/users/{id}/audits.csv']) {
      expect(document.paths[path]!.get!.responses['200'], path).toMatchObject({
        content: { 'text/csv': { schema: { type: 'string' } } },
      });
    }
  });

  it("passes Redocly's recommended lint (the repository's redocly.yaml) with no error and no warning", async () => {
    const config = await loadConfig({
      configPath: fileURLToPath(new URL('../../../../../redocly.yaml', import.meta.url)),
    });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: `${stack.baseUrl}/docs/json`,
      config,
    });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`)).toEqual([]);
  });

  it('is the document the typed client is generated from (services/client/openapi.json): it cannot drift', () => {
    const file = fileURLToPath(new URL('../../../../client/openapi.json', import.meta.url));
    const served = `${JSON.stringify(document, null, 2)}\n`;
    // UPDATE_API_DOCUMENT=1 writes it (then `npm run build -w @seatlink/client` regenerates the client's types).
    if (process.env.UPDATE_API_DOCUMENT === '1') writeFileSync(file, served);
    expect(
      readFileSync(file, 'utf8') === served,
      'services/client/openapi.json is not the served document: run this spec with UPDATE_API_DOCUMENT=1',
    ).toBe(true);
  });

  it('serves Swagger UI at /docs from its own origin', async () => {
    const res = await fetch(`${stack.baseUrl}/docs/`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('swagger');
  });
});
