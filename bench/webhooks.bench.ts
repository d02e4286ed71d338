/**
 * Webhooks against the claim path, against PostgreSQL and Redis:
 * - `webhook-fanout`: claims per second of one unlimited link whose owner has a webhook endpoint asking for
 *   `link.claimed` (a receiver on this machine answering 200), under 32 connections (autocannon), in the production
 *   shape: the claims go to an API process of its own (the built `main.api.js`), the fan-out and the deliveries run in
 *   a worker process (`main.worker.js`); baseline: the same link with the endpoint turned off, in the same rounds. Goal: ratio ≥ 0.9
 *   (delivering never slows the claim path). Records how many deliveries were made and sent during the runs.
 * - `webhook-fanout-one-process`: the same with the claims, the fan-out and the deliveries in one process (`npm start`
 *   with no configuration): there they share one event loop, and the ratio says what delivering costs. No goal.
 * Asserts only that the work was complete (every claim answered, deliveries made).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../services/server/src/infra/db/database.module.js';
import type { Database } from '../services/server/src/infra/db/database.js';
import { JOB_QUEUE, type JobQueue } from '../services/server/src/infra/queue/queue.port.js';
import { SubscriptionHostService } from '../services/server/src/infra/subscriptions/subscriptions.module.js';
import { type ApiProcess, startApiProcess, startWorkerProcess } from '../services/server/src/testing/api-process.js';
import { makeLink, newLinkHolder, RECIPIENT_BROWSER } from '../services/server/src/testing/link-holder.js';
import { ApiClient, startTestStack, type TestStack } from '../services/server/src/testing/test-app.js';
import { testEnv } from '../services/server/src/testing/test-database.js';
import { simControl, startSim } from '../services/server/src/testing/wallet-fixture.js';
import { entryFromRounds, median, recordResults } from './results.js';
import { fmt, loadAverageAtStart, printTable, ROUNDS, roundOrder } from './support.js';

const CLAIM_SECONDS = Number(process.env.BENCH_CLAIM_SECONDS ?? 5);

describe.skipIf(!testEnv.databaseUrl)('webhooks beside the claim path', () => {
  let sim: WalletSimApp;
  let simUrl: string;
  let stack: TestStack;
  let api: ApiProcess | undefined;
  let worker: ApiProcess | undefined;
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('ok');
    });
  });

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    simUrl = url;
    stack = await startTestStack({
      env: {
        LOG_LEVEL: 'error',
        WALLET_PROVIDER_URL: url,
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      },
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  }, 120_000);
  afterAll(async () => {
    receiver.closeAllConnections();
    receiver.close();
    await api?.stop();
    await worker?.stop();
    await stack?.close();
    await sim?.close();
  });

  it('webhook-fanout: claims per second with a link.claimed endpoint, against the same with it off', async () => {
    const admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    const holder = await newLinkHolder(stack, admin, simControl(simUrl), { tickets: 1, credits: 100 });
    const port = (receiver.address() as AddressInfo).port;
    const made = await holder.client.request('POST', '/v1/me/webhooks', {
      url: `http://127.0.0.1:${port}/bench`,
      events: ['link.claimed'],
    });
    expect(made.status).toBe(201);
    const endpointId = (made.body.webhook as { id: string }).id;
    const { code } = await makeLink(holder.client, holder.tickets[0]!);
    const database = stack.app.get<Database>(DATABASE);
    const turn = async (enabled: boolean) => {
      const res = await holder.client.request('PATCH', `/v1/me/webhooks/${endpointId}`, { enabled });
      expect(res.status).toBe(200);
    };
    const measure = async (name: string, claimsAt: string, goal: boolean) => {
      const load = () =>
        autocannon({
          url: `${claimsAt}/v1/links/${code}/claim`,
          method: 'POST',
          headers: { 'user-agent': RECIPIENT_BROWSER },
          connections: 32,
          duration: CLAIM_SECONDS,
        });
      const rounds: Array<{ figure: number; baseline: number; non2xx: number; made: number; sent: number }> = [];
      for (let r = 0; r < ROUNDS; r++) {
        const result: Record<string, autocannon.Result> = {};
        let made = 0;
        let sent = 0;
        for (const variant of roundOrder(r, ['off', 'on'] as const)) {
          await turn(variant === 'on');
          // The turn reaches the fan-out before the load starts.
          await new Promise((resolve) => setTimeout(resolve, 500));
          const [before] = await database.query<{ n: string }>('select count(*) as n from webhook_deliveries');
          const receivedBefore = received;
          result[variant] = await load();
          if (variant === 'on') {
            await new Promise((resolve) => setTimeout(resolve, 1500));
            const [after] = await database.query<{ n: string }>('select count(*) as n from webhook_deliveries');
            made = Number(after!.n) - Number(before!.n);
            sent = received - receivedBefore;
          }
        }
        rounds.push({
          figure: result.on!.requests.average,
          baseline: result.off!.requests.average,
          non2xx: result.on!.non2xx + result.on!.errors + result.off!.non2xx + result.off!.errors,
          made,
          sent,
        });
      }
      await turn(false);
      expect(rounds.every((x) => x.non2xx === 0)).toBe(true);
      printTable(
        `${name}: claims of one link with a link.claimed webhook on and off, 32 connections, ${CLAIM_SECONDS} s a run`,
        ['round', 'claims/s with webhook', 'claims/s without', 'ratio', 'deliveries made', 'delivered meanwhile'],
        rounds.map((x, i) => [
          String(i + 1),
          fmt.int(x.figure),
          fmt.int(x.baseline),
          fmt.fixed(x.figure / x.baseline, 2),
          fmt.int(x.made),
          fmt.int(x.sent),
        ]),
      );
      expect(rounds.every((x) => x.made > 0 && x.sent > 0)).toBe(true);
      return entryFromRounds(
        name,
        {
          unit: 'claims/s',
          baselineUnit: 'claims/s',
          baselineName: 'the same link with its webhook endpoint turned off, same load (32 connections)',
        },
        rounds,
        {
          ...(goal ? { goal: { field: 'ratio' as const, atLeast: 0.9 } } : {}),
          deliveriesMadePerRun: median(rounds.map((x) => x.made)),
          deliveredDuringRun: median(rounds.map((x) => x.sent)),
          connections: 32,
          loadAverageAtStart: loadAverageAtStart(),
        },
      );
    };
    const oneProcess = await measure('webhook-fanout-one-process', stack.baseUrl, false);
    // The production shape: this process stops reading the feed and running jobs; a worker process does both, and the
    // claims go to an API process.
    await stack.app.get(SubscriptionHostService).host!.stop();
    await stack.app.get<JobQueue>(JOB_QUEUE).close();
    worker = await startWorkerProcess(stack.config, { LOG_LEVEL: 'error' });
    api = await startApiProcess(stack.config, { LOG_LEVEL: 'error' });
    const split = await measure('webhook-fanout', api.baseUrl, true);
    await recordResults([split, oneProcess]);
  }, 600_000);
});
