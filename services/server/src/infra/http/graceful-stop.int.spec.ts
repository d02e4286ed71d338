import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startApiProcess } from '../../testing/api-process.js';
import { testConfig } from '../../testing/test-app.js';
import { until } from '../../testing/until.js';

/** A request body that takes 300 ms to arrive: its request is under way, and its connection busy, all along. */
function slowly(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const half = Math.floor(bytes.length / 2);
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(bytes.slice(0, half));
      await new Promise((r) => setTimeout(r, 300));
      controller.enqueue(bytes.slice(half));
      controller.close();
    },
  });
}

/**
 * SIGTERM while clients keep every connection to the API busy, as a load balancer's kept-alive connections or a busy
 * dashboard's do: each client sends its next request on its connection as soon as the last is answered, and each
 * request is under way a while (its body takes 300 ms to arrive). Node's `server.close()` closes only the connections
 * idle at that moment and then waits for the others to end, which such clients never let happen: the process must
 * close them itself.
 */
describe('a graceful stop while clients keep their connections busy', () => {
  let api: ApiProcess | null = null;
  let drop: (() => Promise<void>) | null = null;
  afterAll(async () => {
    await api?.signal('SIGKILL');
    await drop?.();
  });

  it('ends within a bound: requests under way are answered, the next ones refused with 503 and Retry-After', async () => {
    const test = await testConfig();
    drop = test.drop;
    api = await startApiProcess(test.config);
    const { baseUrl, child } = api;
    let gone = false;
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => {
        gone = true;
        resolve({ code, signal });
      }),
    );
    let stopping = false;
    const answers: Array<{
      status: number;
      retryAfter: string | null;
      connection: string | null;
      sentAtStop: boolean;
    }> = [];
    const failures: string[] = [];
    const clients = Array.from({ length: 6 }, async () => {
      while (!gone) {
        const sentAtStop = stopping;
        try {
          const res = await fetch(`${baseUrl}/v1/waitlist`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: slowly(JSON.stringify({ email: `w-${randomUUID()}@example.com`, first_name: 'Wai', last_name: 'T' })),
            duplex: 'half',
            signal: AbortSignal.timeout(10_000),
          });
          await res.text();
          answers.push({
            status: res.status,
            retryAfter: res.headers.get('retry-after'),
            connection: res.headers.get('connection'),
            sentAtStop,
          });
        } catch (err) {
          const cause = (err as Error & { cause?: { code?: string } }).cause?.code;
          failures.push(`${(err as Error).name}${cause ? ` (${cause})` : ''}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    });
    await until('every client answered', () => answers.length >= 12);
    stopping = true;
    child.kill('SIGTERM');
    const outcome = await Promise.race([
      ended,
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000)),
    ]);
    gone = true;
    await Promise.all(clients);

    // Nest's shutdown hooks ran, then it raised the signal again (an error on the way would be exit code 1).
    expect(outcome, api.output().slice(-3000)).toEqual({ code: null, signal: 'SIGTERM' });
    // Each request was answered as usual (under way when the stop came) or refused at once, telling its client to come
    // back (to another process) on a connection closed after it; some were refused.
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect(answer).toMatchObject({ status: 503, retryAfter: '1', connection: 'close' });
    expect(refused.every((a) => a.sentAtStop)).toBe(true);
    // Once the connections were closed the port refused; nothing waited for an answer that never came.
    expect(failures.filter((f) => !/ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET/.test(f))).toEqual([]);
  }, 60_000);
});
