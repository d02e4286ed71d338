import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '../../infra/db/database.js';
import { DATABASE } from '../../infra/db/database.module.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { PurgeSessionsJob } from './purge-sessions.job.js';
import { hashToken } from './sessions.service.js';

describe('session timeouts', () => {
  let stack: TestStack;
  let database: Database;
  beforeAll(async () => {
    stack = await startTestStack({ redis: false });
    database = stack.app.get<Database>(DATABASE);
  });
  afterAll(async () => stack?.close());

  async function signedIn() {
    const client = new ApiClient(stack.baseUrl);
    await client.login('user@seatlink.test', 'User1234!');
    const hash = hashToken(client.sessionCookie.split('=')[1]!);
    return { client, hash };
  }

  it('stores only a hash of the token', async () => {
    const { client, hash } = await signedIn();
    const token = client.sessionCookie.split('=')[1]!;
    const rows = await queryRows<{ token_hash: string }>(database.db, sql`select token_hash from sessions`);
    expect(rows.map((r) => r.token_hash)).toContain(hash);
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
  });

  it('ends a session left idle past the idle timeout', async () => {
    const { client, hash } = await signedIn();
    expect((await client.request('GET', '/v1/me')).status).toBe(200);
    await database.db.execute(
      sql`update sessions set last_seen_at = now() - interval '2 days' where token_hash = ${hash}`,
    );
    expect((await client.request('GET', '/v1/me')).status).toBe(401);
  });

  it('writes a session’s last use at most once a minute, and keeps a session in use alive', async () => {
    const { client, hash } = await signedIn();
    const lastSeen = async () =>
      (
        await queryRows<{ ms: string }>(
          database.db,
          sql`select (extract(epoch from last_seen_at) * 1000)::bigint::text as ms from sessions where token_hash = ${hash}`,
        )
      ).map((r) => Number(r.ms))[0]!;
    const first = await lastSeen();
    await Promise.all(Array.from({ length: 20 }, () => client.request('GET', '/v1/me')));
    expect(await lastSeen()).toBe(first);
    // Last used 23 hours ago (idle timeout 24 h): the next request writes its use, and the session lives on.
    await database.db.execute(
      sql`update sessions set last_seen_at = now() - interval '23 hours' where token_hash = ${hash}`,
    );
    const before = await lastSeen();
    const answers = await Promise.all(Array.from({ length: 10 }, () => client.request('GET', '/v1/me')));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect((await lastSeen()) - before).toBeGreaterThan(22 * 3600_000);
  });

  it('ends a session past its absolute lifetime even while in use', async () => {
    const { client, hash } = await signedIn();
    await database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 second' where token_hash = ${hash}`,
    );
    expect((await client.request('GET', '/v1/me')).status).toBe(401);
  });

  it('the purge job deletes dead sessions and keeps live ones', async () => {
    const dead = await signedIn();
    const live = await signedIn();
    await database.db.execute(
      sql`update sessions set last_seen_at = now() - interval '2 days' where token_hash = ${dead.hash}`,
    );
    await stack.app.get(PurgeSessionsJob).run();
    const left = (await queryRows<{ token_hash: string }>(database.db, sql`select token_hash from sessions`)).map(
      (r) => r.token_hash,
    );
    expect(left).not.toContain(dead.hash);
    expect(left).toContain(live.hash);
    expect((await live.client.request('GET', '/v1/me')).status).toBe(200);
  });
});
