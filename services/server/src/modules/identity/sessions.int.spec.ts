import type { User } from '@seatlink/contracts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '../../infra/db/database.js';
import { DATABASE } from '../../infra/db/database.module.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
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

  describe('sessions read together (one query for the requests that arrive at once)', () => {
    it('answers each of many concurrent requests with its own user, and refuses the dead sessions among them', async () => {
      const people = await Promise.all(Array.from({ length: 12 }, () => createVerifiedUser(stack.app)));
      const clients = await Promise.all(
        people.map(async (person) => {
          const client = new ApiClient(stack.baseUrl);
          expect((await client.login(person.email, person.password)).status).toBe(200);
          return { client, person };
        }),
      );
      const loggedOut = clients[0]!.client;
      const idle = clients[1]!;
      const staleCookie = loggedOut.sessionCookie;
      expect((await loggedOut.request('POST', '/v1/logout')).status).toBeLessThan(300);
      await database.db.execute(
        sql`update sessions set last_seen_at = now() - interval '2 days'
            where token_hash = ${hashToken(idle.client.sessionCookie.split('=')[1]!)}`,
      );
      const calls = [
        ...clients
          .slice(2)
          .flatMap(({ client, person }) =>
            Array.from({ length: 4 }, () => ({ expected: person.email, cookie: client.sessionCookie })),
          ),
        ...Array.from({ length: 4 }, () => ({ expected: null, cookie: staleCookie })),
        ...Array.from({ length: 4 }, () => ({ expected: null, cookie: idle.client.sessionCookie })),
        { expected: null, cookie: 'seatlink_session=' + 'x'.repeat(43) },
        // Decoded by the cookie parser to a bidi override and NUL.
        { expected: null, cookie: 'seatlink_session=' + '%E2%80%AE%00'.repeat(3) },
      ].sort(() => Math.random() - 0.5);
      const answers = await Promise.all(
        calls.map(async ({ cookie }) => {
          const response = await fetch(`${stack.baseUrl}/v1/me`, { headers: { cookie } });
          return { status: response.status, body: (await response.json()) as User };
        }),
      );
      answers.forEach((answer, i) => {
        const { expected } = calls[i]!;
        if (expected === null) expect(answer.status).toBe(401);
        else expect([answer.status, answer.body.email]).toEqual([200, expected]);
      });
    });

    it('the database going away under a batch: its requests get 503 and nothing else; the next ones are answered', async () => {
      const url = stack.config.DATABASE_URL!;
      const { client } = await signedIn();
      // Hold the sessions table, so the batch's read waits in the database; then end the API's connections.
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('lock table sessions in access exclusive mode');
        const pending = Array.from({ length: 20 }, () => client.request('GET', '/v1/me'));
        await expect
          .poll(async () => {
            const { rows } = await holder.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity
               where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
            );
            return rows[0]!.n;
          })
          .toBeGreaterThan(0);
        await holder.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid() and application_name = 'seatlink'`,
        );
        const answers = await Promise.all(pending);
        expect(new Set(answers.map((a) => a.status))).toEqual(new Set([503]));
        expect(answers[0]!.body).toMatchObject({ code: 'UNAVAILABLE', statusCode: 503 });
      } finally {
        await holder.query('rollback').catch(() => undefined);
        await holder.end();
      }
      const after = await Promise.all(Array.from({ length: 20 }, () => client.request('GET', '/v1/me')));
      expect(after.map((a) => a.status)).toEqual(after.map(() => 200));
    });
  });
});
