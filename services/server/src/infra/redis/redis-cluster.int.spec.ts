import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { INestApplicationContext } from '@nestjs/common';
import { SOCKET_PATH } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { Cluster, Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../seed.js';
import { claimLink, makeLink, newLinkHolder } from '../../testing/link-holder.js';
import { ApiClient, startTestStack, startTestWorker, type TestStack } from '../../testing/test-app.js';
import { WebhookReceiver } from '../../testing/webhook-receiver.js';
import { simControl, startSim } from '../../testing/wallet-fixture.js';

/**
 * The product on a Redis Cluster (REDIS_CLUSTER=true; three masters, three replicas: scripts/local-redis-cluster.sh,
 * which `.ci/run` starts): an API process and a worker whose jobs, live updates across processes, throttles and webhook
 * deliveries all go through the cluster — and a master killed under load: its replica takes over, no delivery is lost,
 * pushes resume, and every request is answered (503 with Retry-After at worst) while the slot has no master.
 */
const CLUSTER_URL = process.env.SEATLINK_TEST_REDIS_CLUSTER_URL;
const SCRIPT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../scripts/local-redis-cluster.sh',
);
const run = promisify(execFile);

/** Each claim an endpoint of the holder's was told of, once (a delivery sent again after a lost job counts once). */
const claimsTold = (receiver: WebhookReceiver) =>
  new Set(
    receiver
      .ofType('link.claimed')
      .map((r) => `${String(r.body!.data.distribution_id)}:${String(r.body!.data.claims)}`),
  );

describe.skipIf(!CLUSTER_URL)('on a Redis Cluster', () => {
  let sim: WalletSimApp;
  let control: ReturnType<typeof simControl>;
  let api: TestStack;
  let worker: INestApplicationContext;
  let admin: ApiClient;
  const sockets: Socket[] = [];
  let receiver: WebhookReceiver;

  const balancePushed = (socket: Socket) =>
    new Promise<{ balance: number }>((resolve) => socket.once('balance.updated', resolve));
  const connect = async (cookie: string) => {
    const socket = io(api.baseUrl, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      extraHeaders: { cookie },
      reconnection: true,
      reconnectionDelay: 100,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  };

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    control = simControl(url);
    receiver = await new WebhookReceiver('/hook').start();
    api = await startTestStack({
      role: 'api',
      env: {
        REDIS_URL: CLUSTER_URL!,
        REDIS_CLUSTER: 'true',
        WALLET_PROVIDER_URL: url,
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_BACKOFF_MS: '150',
        WEBHOOK_SWEEP_MS: '500',
        WEBHOOK_SETTLE_MS: '300',
        THROTTLE_LOGIN_ACCOUNT_IP: '3',
      },
    });
    worker = await startTestWorker(api.config);
    await seed(worker);
    admin = new ApiClient(api.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
  }, 90_000);
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await worker?.close();
    await api?.close();
    await receiver?.close();
    await sim?.close();
  });

  it('runs the queues, live updates across processes, throttles and webhook deliveries through the cluster', async () => {
    // A change the worker projects reaches a socket on the API process.
    const holder = await newLinkHolder(api, admin, control, {
      tickets: 1,
      credits: 10,
    });
    const socket = await connect(holder.client.sessionCookie);
    const pushed = balancePushed(socket);
    expect(
      (await admin.request('PUT', `/v1/admin/users/${holder.id}/credits`, { credits: 42, reason: 'Cluster' })).status,
    ).toBe(200);
    expect((await pushed).balance).toBe(42);
    // Live updates go by sharded pub/sub: the socket.io channels are shard channels of the cluster's masters.
    const nodes = new Cluster([CLUSTER_URL!]);
    await new Promise((resolve) => nodes.once('ready', resolve));
    const channels = (
      await Promise.all(
        nodes.nodes('master').map((n) => n.call('PUBSUB', 'SHARDCHANNELS', `${api.config.REDIS_PREFIX}:socket.io*`)),
      )
    ).flat() as string[];
    nodes.disconnect();
    expect(channels.length).toBeGreaterThan(0);

    // Webhook deliveries are jobs on the cluster's queues.
    const hook = await holder.client.request('POST', '/v1/me/webhooks', {
      url: receiver.url,
      events: ['link.claimed'],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const link = await makeLink(holder.client, holder.tickets[0]!);
    for (let i = 0; i < 3; i++) expect((await claimLink(api.baseUrl, link.code)).status).toBe(200);
    await expect.poll(() => claimsTold(receiver).size, { timeout: 20_000 }).toBe(3);

    // Throttles count on the cluster: the fourth wrong password for one account from one address is refused.
    const guesser = new ApiClient(api.baseUrl);
    const tries = [];
    for (let i = 0; i < 4; i++) tries.push((await guesser.login('user@seatlink.test', 'wrong-password')).status);
    expect(tries.slice(0, 3).every((s) => s === 401)).toBe(true);
    expect(tries[3]).toBe(429);
  });

  it('keeps answering while a master dies, and loses no delivery once its replica has taken over', async () => {
    const holder = await newLinkHolder(api, admin, control, {
      tickets: 1,
      credits: 10,
    });
    const hook = await holder.client.request('POST', '/v1/me/webhooks', {
      url: receiver.url,
      events: ['link.claimed'],
    });
    expect(hook.status).toBe(201);
    const link = await makeLink(holder.client, holder.tickets[0]!);
    const before = claimsTold(receiver).size;

    // The master of the queues' slot (the prefix is one hash tag): kill it.
    const seed = new Redis(CLUSTER_URL!);
    const prefix = api.config.REDIS_PREFIX;
    const slot = Number(await seed.call('CLUSTER', 'KEYSLOT', `{${prefix}}`));
    const shards = (await seed.call('CLUSTER', 'SLOTS')) as Array<[number, number, [string, number]]>;
    const [, , [, masterPort]] = shards.find(([from, to]) => slot >= from && slot <= to)!;
    seed.disconnect();
    await run('redis-cli', ['-h', '127.0.0.1', '-p', String(masterPort), 'shutdown', 'nosave']).catch(() => undefined);

    // Claims and reads go on throughout: each answered within the bound, 200 or 503 with Retry-After.
    const started = Date.now();
    const answers: Array<{ status: number; retryAfter: string | null; ms: number }> = [];
    while (Date.now() - started < 8000) {
      const batch = await Promise.all([
        timed(() => claimLink(api.baseUrl, link.code)),
        timed(() => fetch(`${api.baseUrl}/v1/me`, { headers: { cookie: holder.client.sessionCookie } })),
      ]);
      answers.push(...batch);
    }
    try {
      expect(answers.filter((a) => a.ms > 10_000)).toEqual([]);
      expect(answers.filter((a) => a.status !== 200 && !(a.status === 503 && a.retryAfter))).toEqual([]);
      // Claims answered 200 each have their delivery (a job lost with the master is sent again by the sweep).
      const claimed = answers.filter((a, i) => i % 2 === 0 && a.status === 200).length;
      expect(claimed).toBeGreaterThan(0);
      await expect.poll(() => claimsTold(receiver).size - before, { timeout: 30_000 }).toBe(claimed);

      // Pushes resume.
      const socket = await connect(holder.client.sessionCookie);
      const pushed = balancePushed(socket);
      await expect
        .poll(
          async () =>
            (
              await admin.request('PUT', `/v1/admin/users/${holder.id}/credits`, {
                credits: 77,
                reason: 'After the failover',
              })
            ).status,
          { timeout: 10_000 },
        )
        .toBe(200);
      expect((await pushed).balance).toBe(77);
    } finally {
      // The killed node comes back (as a replica of the one that took over).
      await run('bash', [SCRIPT, 'start-node', String(masterPort)]);
    }
  });
});

async function timed(call: () => Promise<Response>) {
  const began = Date.now();
  const res = await call();
  await res.arrayBuffer();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: Date.now() - began };
}
