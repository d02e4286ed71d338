/**
 * Helpers of the benches that need tickets: a reader of GET /v1/tickets in a thread of its own (its waiting and
 * decoding never share the server's event loop, as a browser's would not), the bytes an answer takes on the wire,
 * wallets of many passes in the simulated provider, and linked, synced accounts written straight as their events.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { Worker } from 'node:worker_threads';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import type { EventStore } from '../services/server/src/infra/event-store/event-store.port.js';
import { walletAccountDecider } from '../services/server/src/modules/wallet-accounts/wallet-account.decider.js';
import { walletAccountStream } from '../services/server/src/modules/wallet-accounts/wallet-account.events.js';
import { fold } from '../services/server/src/shared/event-sourcing/decider.js';

/** The reader's loop, as CommonJS for an eval'd worker: sequential GETs until told to stop (or `maxReads`). */
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
let stop = false;
parentPort.on('message', (m) => { if (m === 'stop') stop = true; });
(async () => {
  const latencies = [];
  let bytes = 0;
  while (!stop && latencies.length < workerData.maxReads) {
    const t0 = performance.now();
    const res = await fetch(workerData.url, { headers: { cookie: workerData.cookie, 'accept-encoding': 'br' } });
    const body = await res.arrayBuffer();
    if (res.status !== 200) { parentPort.postMessage({ error: 'GET answered ' + res.status }); return; }
    latencies.push(performance.now() - t0);
    bytes = body.byteLength;
  }
  parentPort.postMessage({ latencies, bytes });
})().catch((err) => parentPort.postMessage({ error: String(err) }));
`;

export interface ReaderResult {
  /** Milliseconds per read, in the order made. */
  latencies: number[];
  /** Bytes of the last answer, decoded. */
  bytes: number;
}

/** A reader making one GET after another from its own thread; `stop()` ends it and answers what it measured. */
export function startReader(url: string, cookie: string, maxReads = Number.POSITIVE_INFINITY) {
  const worker = new Worker(READER, { eval: true, workerData: { url, cookie, maxReads } });
  const done = new Promise<ReaderResult>((resolve, reject) => {
    worker.once('message', (m: ReaderResult & { error?: string }) => {
      if (m.error) reject(new Error(m.error));
      else resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
  return {
    done,
    stop: async () => {
      worker.postMessage('stop');
      return done;
    },
  };
}

/**
 * Bytes of an answer's body as sent (not decoded): with `Accept-Encoding: br`, brotli's (an answer under the server's
 * 1 KiB threshold goes as it is); without, the JSON's.
 */
export function wireBytes(url: string, cookie: string, brotli: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { cookie, ...(brotli ? { 'accept-encoding': 'br' } : {}) } }, (res) => {
      let n = 0;
      res.on('data', (chunk: Buffer) => (n += chunk.length));
      res.on('end', () => (res.statusCode === 200 ? resolve(n) : reject(new Error(`GET ${url}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A wallet of `count` passes, each a ticket of its own (a seat, a next game), in the simulator. */
export function bigWallet(sim: WalletSimApp, email: string, password: string, count: number, tag: string) {
  sim.walletSim.createWallet({ email, password, first_name: 'Season', last_name: tag });
  for (let p = 0; p < count; p++) {
    sim.walletSim.addPass(email, {
      id: `${tag}-${p}`,
      barcode: `BC-${tag}-${p}`,
      event: { title: `Harbourside Athletic vs Rovers ${p % 38}`, subtitle: 'Premier Division' },
      venue: { name: 'Quayside Stadium' },
      seat: { section: String(100 + (p % 40)), row: String.fromCharCode(65 + (p % 20)), seat: String(p % 30) },
      next_game: { title: 'Harbourside Athletic vs Northgate Rovers', date: '2026-12-05T15:00:00.000Z' },
      visible_after_ms: 0,
    });
  }
}

/**
 * `accounts` wallet accounts of `passes` passes each for the user, linked and synced by writing their events in one
 * append each (not measured). Linked alone, an account's own sync job would run first, find no sign-in and put the
 * account in error, and a sync recorded after that adds no ticket.
 */
export async function appendSyncedAccounts(
  store: EventStore,
  options: { userId: string; accounts: number; passes: number; tag: string },
): Promise<void> {
  const { userId, accounts, passes: count, tag } = options;
  for (let a = 0; a < accounts; a++) {
    const accountId = randomUUID();
    const now = new Date().toISOString();
    const passes = Array.from({ length: count }, (_, p) => ({
      passId: `${tag}${a}-${p}`,
      barcode: `BC-${tag}-${a}-${p}`,
      title: `Match ${p}`,
      subtitle: 'Premier Division',
      logo: null,
      saveUrl: `https://wallet.example/save/${tag}${a}-${p}`,
      venueName: 'Quayside Stadium',
      section: String(p % 10),
      row: 'A',
      seat: String(p),
      nextGame: null,
      nextGameDate: null,
    }));
    const linked = walletAccountDecider.decide(
      {
        type: 'LinkAccount',
        data: {
          accountId,
          userId,
          email: `${tag}${a}@wallet.test`,
          providerAccountId: `${tag}-${a}`,
          firstName: 'Bench',
          lastName: String(a),
          displayName: `Bench ${a}`,
          now,
        },
      },
      walletAccountDecider.initialState(),
    );
    const synced = walletAccountDecider.decide(
      { type: 'RecordSync', data: { accountId, passes, now } },
      fold(walletAccountDecider, linked),
    );
    await store.appendToStream(
      walletAccountStream(accountId),
      [...linked, ...synced].map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: {} })),
      { expectedRevision: 'no_stream' },
    );
  }
}
