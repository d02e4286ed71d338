/**
 * Dashboards for distribution.bench.ts `click-to-dashboard`: many socket.io clients of one signed-in user, in a thread
 * of their own, as browsers would be. In the bench's own thread their reading of every push (500 sockets × 200 pushes a
 * second) shared the event loop of the server they measured, so every step of a claim (the request, the database's
 * answer, the push) waited behind it, and the figure said more about the bench than the product.
 *
 * Times are read on the process's monotonic clock (`process.hrtime`), the same in every thread: a push's latency is
 * its arrival in the dashboards' thread less its sending in the bench's.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SOCKET_PATH } from '@seatlink/contracts';

/** Milliseconds on the monotonic clock every thread of the process shares. */
export const clockMs = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * The dashboards' thread, as CommonJS for an eval'd worker. Every push of the events it is told to watch is kept as
 * its key (from the push) and the time it arrived, until collected.
 */
const DASHBOARDS = `
const { parentPort, workerData } = require('node:worker_threads');
const { io } = require(workerData.client);
const clockMs = () => Number(process.hrtime.bigint()) / 1e6;
const arrivals = new Map();
let total = 0;
const keep = (key) => {
  const at = clockMs();
  let times = arrivals.get(key);
  if (!times) arrivals.set(key, (times = []));
  times.push(at);
  total++;
};
const sockets = [];
for (let i = 0; i < workerData.count; i++) {
  const socket = io(workerData.baseUrl, {
    path: workerData.path,
    transports: ['websocket'],
    extraHeaders: { cookie: workerData.cookie },
    reconnection: false,
  });
  socket.on('account.updated', (p) => keep('account:' + p.account_id));
  socket.on('distributions.clicked', (p) => { for (const l of p.links) keep('click:' + l.distribution_id + ':' + l.clicks); });
  sockets.push(socket);
}
Promise.all(sockets.map((s) => new Promise((resolve, reject) => {
  if (s.connected) resolve();
  s.once('connect', resolve);
  s.once('connect_error', reject);
}))).then(() => parentPort.postMessage({ type: 'ready' }), (err) => parentPort.postMessage({ type: 'error', error: String(err) }));
parentPort.on('message', async (m) => {
  if (m.type === 'close') {
    for (const s of sockets) s.disconnect();
    parentPort.postMessage({ type: 'closed' });
    return;
  }
  if (m.type !== 'collect') return;
  const deadline = Date.now() + m.timeoutMs;
  const count = () => { let n = 0; for (const [key, times] of arrivals) if (key.startsWith(m.prefix)) n += times.length; return n; };
  while (count() < m.expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const got = [];
  for (const [key, times] of arrivals) if (key.startsWith(m.prefix)) { got.push([key, times]); arrivals.delete(key); }
  parentPort.postMessage({ type: 'collected', got });
});
`;

export interface Dashboards {
  /**
   * Waits until `expected` pushes whose key starts with `prefix` ('account:' or 'click:') have arrived (or
   * `timeoutMs`), then answers each one's latency, ms, from the time `sentAt` gives for its key (pushes of keys it
   * does not know are left out), sorted.
   */
  collect(prefix: string, sentAt: ReadonlyMap<string, number>, expected: number, timeoutMs: number): Promise<number[]>;
  close(): Promise<void>;
}

/** `count` dashboards of the user whose session `cookie` is, connected to `baseUrl`, in a thread of their own. */
export async function startDashboards(baseUrl: string, cookie: string, count: number): Promise<Dashboards> {
  const client = createRequire(import.meta.url).resolve('socket.io-client');
  const worker = new Worker(DASHBOARDS, {
    eval: true,
    workerData: { baseUrl, cookie, count, path: SOCKET_PATH, client },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', (m: { type: string; error?: string }) =>
      m.type === 'ready' ? resolve() : reject(new Error(`dashboards: ${m.error ?? m.type}`)),
    );
    worker.once('error', reject);
  });
  return {
    collect: (prefix, sentAt, expected, timeoutMs) =>
      new Promise((resolve, reject) => {
        worker.once('message', (m: { type: string; got: Array<[string, number[]]> }) => {
          const latencies: number[] = [];
          for (const [key, times] of m.got) {
            const sent = sentAt.get(key);
            if (sent !== undefined) for (const at of times) latencies.push(at - sent);
          }
          resolve(latencies.sort((a, b) => a - b));
        });
        worker.once('error', reject);
        worker.postMessage({ type: 'collect', prefix, expected, timeoutMs });
      }),
    close: async () => {
      // The sockets say goodbye to the server before the thread ends.
      await new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.postMessage({ type: 'close' });
      });
      await worker.terminate();
    },
  };
}
