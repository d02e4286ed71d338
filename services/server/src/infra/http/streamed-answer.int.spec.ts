import { Transform } from 'node:stream';
import { stringify } from 'csv-stringify';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../db/database.module.js';
import type { Database } from '../db/database.js';
import { captureOutput } from '../../testing/capture-output.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
import { sendStreamed } from './streamed-answer.js';

/** Errors no listener heard (an unheard stream 'error' is one): each would have ended a production process. */
const uncaught: unknown[] = [];
const recordUncaught = (error: unknown) => uncaught.push(error);

/** Reads an answer to its end: the text, or the error that cut it off. */
async function readToEnd(res: Response): Promise<{ text: string; cutOff: boolean }> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of res.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
    return { text, cutOff: false };
  } catch {
    return { text, cutOff: true };
  }
}

describe('a streamed answer that fails ends that answer, never the process', () => {
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  /** 2,500 entries, the newest 2,000 in the year 10000: the export's second page is asked for from there. */
  let farUser: string;
  /** One entry dated `infinity`, which no JavaScript date holds: the export fails on its first page. */
  let infiniteUser: string;
  /** 2,100 ordinary entries. */
  let plainUser: string;

  beforeAll(async () => {
    process.on('uncaughtException', recordUncaught);
    process.on('unhandledRejection', recordUncaught);
    stack = await startTestStack();
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    farUser = (await createVerifiedUser(stack.app)).id;
    infiniteUser = (await createVerifiedUser(stack.app)).id;
    plainUser = (await createVerifiedUser(stack.app)).id;
    const insert = (userId: string, count: number, firstAt: string) =>
      database.query(
        `insert into audit_entries (id, user_id, created_at, kind, event_type, status, ticket_id, distribution_id,
                                    ip_address, bulk_action, event_data)
         select gen_random_uuid(), $1, $2::timestamptz - make_interval(secs => i), 'links', 'DISTRIBUTE', 'SUCCESS',
                gen_random_uuid()::text, gen_random_uuid()::text, '127.0.0.1', false, '{}'
         from generate_series(1, $3::int) i`,
        [userId, firstAt, count],
      );
    // PostgreSQL holds the year 10000; JavaScript reads it too, but writes it back as `+010000-…`, which PostgreSQL
    // refuses: the query for the page after the first 2,000 rows fails inside the database, with drizzle's message
    // carrying the query's parameters (the user's id among them).
    await insert(farUser, 2000, '10000-06-01T00:00:00Z');
    await insert(farUser, 500, '2020-06-01T00:00:00Z');
    await insert(infiniteUser, 10, '2020-06-01T00:00:00Z');
    await database.query(
      `insert into audit_entries (id, user_id, created_at, kind, event_type, status, bulk_action, event_data)
       values (gen_random_uuid(), $1, 'infinity', 'links', 'DISTRIBUTE', 'SUCCESS', false, '{}')`,
      [infiniteUser],
    );
    await insert(plainUser, 2100, '2020-06-01T00:00:00Z');
  });
  afterEach(() => expect(uncaught).toEqual([]));
  afterAll(async () => {
    await stack?.close();
    process.off('uncaughtException', recordUncaught);
    process.off('unhandledRejection', recordUncaught);
  });

  const exportOf = (userId: string, encoding: string) =>
    fetch(`${stack.baseUrl}/v1/admin/users/${userId}/audits.csv`, {
      headers: { cookie: admin.sessionCookie, 'accept-encoding': encoding },
    });

  /** The process answers, and another export (of 2,100 rows, two pages) is whole. */
  async function stillServing() {
    expect((await fetch(`${stack.baseUrl}/health`)).status).toBeLessThan(500);
    const page = await admin.request('GET', `/v1/admin/users/${plainUser}/audits?limit=5`);
    expect(page.status).toBe(200);
    expect(page.body.audits).toHaveLength(5);
    const whole = await exportOf(plainUser, 'identity');
    expect(whole.status).toBe(200);
    const { text, cutOff } = await readToEnd(whole);
    expect(cutOff).toBe(false);
    expect(text.trim().split(/\r?\n/)).toHaveLength(1 + 2100);
  }

  // (Brotli keeps its first bytes back until far more than a page has come: there the failure comes before the first
  // byte, the case below.)
  it.each(['identity', 'gzip'])(
    'a database error after the first page (%s): the answer is cut off, logged without the query’s parameters',
    async (encoding) => {
      const { result, log } = await captureOutput(async () => {
        const res = await exportOf(farUser, encoding);
        return { status: res.status, ...(await readToEnd(res)) };
      });
      // The first page went out (status and rows), then the answer was cut off: never a file that looks complete.
      expect(result.status).toBe(200);
      expect(result.cutOff).toBe(true);
      if (encoding === 'identity') {
        expect(result.text).toContain('Event Time,Status,Event Type');
        expect(result.text).toContain('+010000-05-31T23:59:59.000Z');
      }
      expect(log).toContain('Audit CSV export ended early');
      expect(log).not.toContain(farUser);
      expect(log).not.toContain('params');
      expect(log).not.toContain('+010000');
      await stillServing();
    },
  );

  it('an error before the first byte is an error answer like any other, without details', async () => {
    const { result, log } = await captureOutput(async () => {
      const res = await exportOf(infiniteUser, 'identity');
      return { status: res.status, body: await res.text() };
    });
    expect(result.status).toBe(500);
    expect(JSON.parse(result.body)).toEqual({ message: 'Something went wrong', statusCode: 500 });
    expect(log).not.toContain(infiniteUser);
    await stillServing();
  });

  it('a burst of exports, failing and whole, at once: each ends as it should, and the process serves on', async () => {
    const failing = Array.from({ length: 8 }, async () => {
      const res = await exportOf(farUser, 'identity');
      return { status: res.status, ...(await readToEnd(res)) };
    });
    const early = Array.from({ length: 4 }, async () => (await exportOf(infiniteUser, 'identity')).status);
    const whole = Array.from({ length: 4 }, async () => readToEnd(await exportOf(plainUser, 'gzip')));
    const { result } = await captureOutput(() =>
      Promise.all([Promise.all(failing), Promise.all(early), Promise.all(whole)]),
    );
    const [cut, refused, complete] = result;
    expect(cut.every((r) => r.status === 200 && r.cutOff)).toBe(true);
    expect(refused).toEqual([500, 500, 500, 500]);
    expect(complete.every((r) => !r.cutOff && r.text.trim().split(/\r?\n/).length === 1 + 2100)).toBe(true);
    await stillServing();
  });

  it('a client that goes away mid-answer stops the export, and is no error of the server', async () => {
    const controller = new AbortController();
    const { log } = await captureOutput(async () => {
      const res = await fetch(`${stack.baseUrl}/v1/admin/users/${plainUser}/audits.csv`, {
        headers: { cookie: admin.sessionCookie, 'accept-encoding': 'identity' },
        signal: controller.signal,
      });
      const reader = res.body!.getReader();
      await reader.read();
      controller.abort();
      await reader.read().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 200));
    });
    expect(log).not.toContain('ended early');
    await stillServing();
  });

  it('holds for any source and stage, outside the audit export too', async () => {
    const fastify = Fastify();
    const failing = () =>
      (async function* () {
        for (let i = 0; i < 3000; i++) {
          if (i === 2500) throw new Error('the source failed');
          yield [String(i), 'x'.repeat(50)];
        }
      })();
    fastify.get('/late', (_request, reply) => sendStreamed(reply, 'Test export', failing(), stringify()));
    fastify.get('/stage', (_request, reply) =>
      sendStreamed(
        reply,
        'Test export',
        (async function* () {
          yield* [['a'], ['b']];
        })(),
        stringify(),
        new Transform({ transform: (_chunk, _encoding, done) => done(new Error('the stage failed')) }),
      ),
    );
    fastify.get('/fine', (_request, reply) =>
      sendStreamed(
        reply,
        'Test export',
        (async function* () {
          yield* [['a'], ['b']];
        })(),
        stringify(),
      ),
    );
    const address = await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { result, log } = await captureOutput(async () => {
        const late = await fetch(`${address}/late`);
        const stage = await fetch(`${address}/stage`);
        return { late: { status: late.status, ...(await readToEnd(late)) }, stage: stage.status };
      });
      expect(result.late.status).toBe(200);
      expect(result.late.cutOff).toBe(true);
      expect(result.late.text).toMatch(/^0,x+\n1,x/);
      expect(result.late.text).not.toContain('2500,');
      expect(log).toContain('Test export ended early: Error: the source failed');
      // A stage that fails before the first byte: Fastify's error answer (a bare instance has no exception filter).
      expect(result.stage).toBe(500);
      const fine = await fetch(`${address}/fine`);
      expect(await fine.text()).toBe('a\nb\n');
    } finally {
      await fastify.close();
    }
  });
});
