/**
 * `failover-takeover`: an API process and two workers of the built product (`npm run bench` builds it) on one
 * PostgreSQL database and Redis, a dashboard's socket connected. Each round kills the worker running the
 * subscriptions (SIGKILL) and at once changes the user's credits through the API: the figure is the milliseconds from
 * the kill to the dashboard receiving the new balance (the standby takes the lock, catches up, pushes). Baseline: the
 * same change with both workers alive, in the same round. Lower is better: the ratio is figure ÷ baseline. A fresh
 * standby is started after each round. Asserts only that every change arrived.
 */
import { SOCKET_PATH } from '@seatlink/contracts';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAt, startTopology, type Topology } from '../web/e2e/support/topology.js';
import { entryFromRounds, recordResults } from './results.js';
import { fmt, loadAverageAtStart, printTable, ROUNDS } from './support.js';

const LOCK_TAKEN = 'took the subscriptions lock';

describe.skipIf(!process.env.DATABASE_URL || !process.env.REDIS_URL)('failover of the subscriptions worker', () => {
  let topology: Topology;
  let socket: Socket;
  let adminCookie: string;
  let userId: string;
  let value = 100;

  const signIn = (email: string, password: string) => signInAt(topology.apis[0]!, email, password);

  /** Sets a new balance and resolves with the time its push reached the dashboard. */
  const change = () => {
    const wanted = ++value;
    const arrived = new Promise<number>((resolve) => {
      const onUpdate = (update: { user_id: string; balance: number }) => {
        if (update.balance !== wanted) return;
        socket.off('balance.updated', onUpdate);
        resolve(performance.now());
      };
      socket.on('balance.updated', onUpdate);
    });
    const sent = fetch(`${topology.apis[0]!.url}/v1/admin/users/${userId}/credits`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie: adminCookie },
      body: JSON.stringify({ credits: wanted, reason: 'Benchmark' }),
    }).then((res) => expect([200, 202]).toContain(res.status));
    return Promise.all([arrived, sent]).then(([at]) => at);
  };

  beforeAll(async () => {
    topology = await startTopology({ apis: 1, nginx: false, logLevel: 'log' });
    adminCookie = (await signIn('admin@seatlink.test', 'Admin123!')).cookie;
    const user = await signIn('user@seatlink.test', 'User1234!');
    userId = user.id;
    socket = io(topology.apis[0]!.url, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      extraHeaders: { cookie: user.cookie },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
  }, 180_000);
  afterAll(async () => {
    socket?.close();
    await topology?.stop();
  });

  it('failover-takeover: kill of the active worker to the first change on a dashboard', async () => {
    const rounds: Array<{ figure: number; baseline: number }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const started = performance.now();
      const baseline = (await change()) - started;
      const alive = topology.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
      const active = alive.find((w) => w.output().includes(LOCK_TAKEN))!;
      expect(alive).toHaveLength(2);
      const killedAt = performance.now();
      await active.kill();
      const figure = (await change()) - killedAt;
      rounds.push({ figure, baseline });
      await topology.startWorker(`worker-${r + 3}`);
      // Let the new standby settle before the next round's healthy change.
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    printTable(
      'Failover: SIGKILL of the worker running the subscriptions, to the next change on a dashboard',
      ['round', 'after the kill ms', 'healthy ms', 'ratio'],
      rounds.map((x, i) => [
        String(i + 1),
        fmt.int(x.figure),
        fmt.int(x.baseline),
        fmt.fixed(x.figure / x.baseline, 1),
      ]),
    );
    await recordResults([
      entryFromRounds(
        'failover-takeover',
        {
          unit: 'ms',
          baselineUnit: 'ms',
          baselineName: 'the same change with both workers alive (PUT to the push on the dashboard)',
        },
        rounds,
        { goal: { field: 'figure', atMost: 5000 }, loadAverageAtStart: loadAverageAtStart() },
      ),
    ]);
  }, 600_000);
});
