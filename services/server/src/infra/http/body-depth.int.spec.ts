import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../db/database.module.js';
import { type Database, queryRows } from '../db/database.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import type { OpenApiDocument } from './openapi.js';
import { MAX_JSON_DEPTH } from './raw-body.js';

const TOO_DEEP = `Request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;
const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('a JSON body nested too deeply is refused where it is parsed, for every route', () => {
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  let user: ApiClient;
  let operations: Array<{ method: string; path: string }>;
  let userId: string;

  const written = async () =>
    (await queryRows<{ n: string }>(database.db, sql`select count(*)::text as n from events`))[0]!.n;

  beforeAll(async () => {
    stack = await startTestStack();
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as { id: string }).id;
    const document = (await (await fetch(`${stack.baseUrl}/docs/json`)).json()) as OpenApiDocument;
    operations = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((method) => ['post', 'put', 'delete', 'patch'].includes(method))
        .map((method) => ({
          method: method.toUpperCase(),
          // A real user's id where a route takes one, so an accepted body would reach the handler.
          path: path.replace(/\{[^}]+\}/g, userId),
        })),
    );
  });
  afterAll(async () => stack?.close());

  it('every state-changing operation of /docs/json, as visitor, user and admin, with an Idempotency-Key', async () => {
    expect(operations.length).toBeGreaterThan(20);
    const before = await written();
    for (const { method, path } of operations) {
      for (const client of [admin, user, new ApiClient(stack.baseUrl)]) {
        for (const raw of [nestedArrays(5_000), nestedObjects(5_000), `{"x":${nestedArrays(100_000)}}`]) {
          const res = await client.request(method, path, undefined, {
            raw,
            headers: { 'idempotency-key': `deep-${method}-${path}-${raw.length}` },
          });
          expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(400);
          expect(res.body.message).toBe(TOO_DEEP);
        }
      }
    }
    expect(await written()).toBe(before);
    expect((await fetch(`${stack.baseUrl}/health`)).status).toBe(200);
  });

  it('takes a body at the limit: it is judged by the route as any other', async () => {
    const atLimit = `{"credits":${nestedArrays(MAX_JSON_DEPTH - 1)},"reason":"Test"}`;
    const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, undefined, {
      raw: atLimit,
      headers: { 'idempotency-key': 'at-the-limit' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('credits: credits must be a number');
    const over = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, undefined, {
      raw: `{"credits":${nestedArrays(MAX_JSON_DEPTH)}}`,
      headers: { 'idempotency-key': 'over-the-limit' },
    });
    expect(over.body.message).toBe(TOO_DEEP);
    const fine = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 7, reason: 'Test' });
    expect(fine.status).toBe(200);
  });
});
