import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Ticket } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, environmentOf, startApiProcess, startWorkerProcess } from '../../testing/api-process.js';
import { type LinkHolder, makeLink, newLinkHolder, RECIPIENT_BROWSER } from '../../testing/link-holder.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { WebhookReceiver } from '../../testing/webhook-receiver.js';
import { testEnv } from '../../testing/test-database.js';
import { describeWithThrowawayCluster, ThrowawayCluster } from '../../testing/throwaway-cluster.js';
import { until } from '../../testing/until.js';
import { simControl, startSim } from '../../testing/wallet-fixture.js';
import { clickStream } from './distribution.events.js';

/*
 * Every claim answered is an event before its answer, under faults (README, "Links, clicks and the audit log": the
 * click's event is written in the transaction that counts it). 300 recipients press "Add to wallet" on a link limited
 * to 100 clicks and 300 on an unlimited link, spread over two real API processes (the built main.api.js) with a worker
 * process (subscriptions, webhook deliveries) and Redis, on a PostgreSQL cluster of this test's own. Each recipient
 * sends its press with an Idempotency-Key of its own and, like the recipient page, sends it again with the same key
 * after any failure or silence, on the other API process, until it has a final answer (200, or 410 once the link is
 * at its limit). Mid-storm, one API process is killed (SIGKILL), or PostgreSQL is restarted as a crash would leave it
 * (`pg_ctl restart -m immediate`). Afterwards one number must stand for each link everywhere: the recipients told yes
 * (each once, however many tries it took and whether its answer was replayed), the LinkClicked events, the counter
 * the claims decide on, the owner's list, the link.claimed webhooks a receiver of the owner's got — and a rebuild of
 * the read models from the events (`npm run replay`) gives the same counts again.
 */

const CLAIMERS = 300;
const LIMIT = 100;
/** The claimers of both links start one after the other over this long, so a fault lands among them. */
const STORM_MS = 4000;
/**
 * The fault comes once this many claims of each link have been answered yes; the claimers after the first quarter
 * start only once it has begun, so the limited link (fewer than LIMIT claimers before) still admits claims then.
 */
const FAULT_AFTER = 20;
const BEFORE_FAULT = 1 / 4;
/** A recipient's tries at most, each waited for at most TRY_MS, with a small backoff between. */
const MAX_TRIES = 40;
const TRY_MS = 15_000;
/** The application_name of the connections of API process i is APP_NAME + i. */
const APP_NAME = 'claims-api-';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An endpoint of the link owner's own system: every `link.claimed` delivery that arrives, by link and event id. */
class Receiver extends WebhookReceiver {
  /** Link id → the event ids of its link.claimed deliveries → the click number each told (`claims`). */
  get claimed(): Map<string, Map<string, number>> {
    const claimed = new Map<string, Map<string, number>>();
    for (const { body } of this.ofType('link.claimed')) {
      const { link_id: link, claims } = body!.data as { link_id: string; claims: number };
      const of = claimed.get(link) ?? new Map<string, number>();
      of.set(body!.id, claims);
      claimed.set(link, of);
    }
    return claimed;
  }

  /** Deliveries that arrived, repeats included. */
  get arrivals(): number {
    return this.received.length;
  }
}

interface Link {
  name: 'limited' | 'unlimited';
  code: string;
  distributionId: string;
}

/** One recipient's press of "Add to wallet", and what became of it. */
interface Claim {
  link: Link;
  key: string;
  /** The final answer: 200 or 410; null when none came within MAX_TRIES. */
  status: 200 | 410 | null;
  /** The final 200 said Idempotency-Replayed: an earlier try had been counted, its answer lost. */
  replayed: boolean;
  /** The code of a final 410. */
  code?: string;
  tries: number;
  /** Why each try before the last one failed: its HTTP status, `cut` (the connection failed) or `silent`. */
  failures: string[];
}

/**
 * Sends a claim until it has a final answer, as the recipient page does: the same Idempotency-Key each time; after a
 * failure, on the next API process of the list (a recipient of a killed process ends up on one that lives).
 */
async function claimUntilAnswered(claim: Claim, apis: readonly ApiProcess[], first: number): Promise<void> {
  for (let tries = 1; tries <= MAX_TRIES; tries++) {
    claim.tries = tries;
    const api = apis[(first + tries - 1) % apis.length]!;
    let failure: string;
    try {
      const res = await fetch(`${api.baseUrl}/v1/links/${claim.link.code}/claim`, {
        method: 'POST',
        headers: { 'user-agent': RECIPIENT_BROWSER, 'idempotency-key': claim.key },
        signal: AbortSignal.timeout(TRY_MS),
      });
      const body = (await res.json().catch(() => null)) as { code?: string; wallet_url?: string } | null;
      if (res.status === 200 || res.status === 410) {
        claim.status = res.status;
        claim.replayed = res.headers.get('idempotency-replayed') === 'true';
        if (res.status === 410) claim.code = body?.code;
        return;
      }
      failure = String(res.status);
    } catch (err) {
      failure = (err as Error).name === 'TimeoutError' ? 'silent' : 'cut';
    }
    claim.failures.push(failure);
    await sleep(Math.min(50 * 2 ** Math.min(tries, 4), 800) + Math.random() * 50);
  }
}

describeWithThrowawayCluster('claims under faults: every claim answered is an event first', {}, (toolchain) => {
  describe.skipIf(!testEnv.redisUrl)('on two API processes and a worker, with Redis', () => {
    let cluster: ThrowawayCluster;
    let receiver: Receiver;
    let sim: WalletSimApp;
    let stack: TestStack;
    let worker: ApiProcess;
    let holder: LinkHolder;
    let tickets: Ticket[];
    let endpointId: string;
    const running: ApiProcess[] = [];

    /** One statement on the test's database, on a connection of its own (the server may have been restarted). */
    const query = <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
      cluster.query<T>(new URL(stack.config.DATABASE_URL!).pathname.slice(1), text, params);

    beforeAll(async () => {
      cluster = new ThrowawayCluster(toolchain, {
        name: 'seatlink-claim-faults-',
        // The WAL writer's own flushes rare: a commit that did not wait for the disk stays in the server's buffers
        // (which an immediate restart loses) until a durable commit writes the log past it, as the claims' answers do.
        settings: { max_connections: '200', wal_writer_delay: '10000', wal_writer_flush_after: '0' },
      });
      await cluster.start();
      receiver = await new Receiver().start();
      let simUrl: string;
      ({ sim, url: simUrl } = await startSim());
      const control = simControl(simUrl);
      // The stack of this process sets the test up (users, a wallet, links) and waits for the worker; recipients
      // never reach it.
      stack = await startTestStack({
        role: 'api',
        databaseUrl: cluster.url(),
        env: {
          WALLET_PROVIDER_URL: simUrl,
          WALLET_SYNC_FOLLOW_UPS_MS: '',
          WALLET_SYNC_EVERY_MS: '600000',
          WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
          WEBHOOK_SETTLE_MS: '0',
          WEBHOOK_BACKOFF_MS: '200',
          WEBHOOK_SWEEP_MS: '500',
          WEBHOOK_TIMEOUT_MS: '2000',
          WEBHOOK_DISABLE_AFTER_FAILURES: '100000',
        },
      });
      // The worker seeds the empty database, runs the subscriptions and delivers the webhooks.
      worker = await startWorkerProcess(stack.config);
      const admin = new ApiClient(stack.baseUrl);
      await until(
        'the worker to seed the demo admin',
        async () => (await admin.login('admin@seatlink.test', 'Admin123!')).status === 200,
        60_000,
      );
      holder = await newLinkHolder(stack, admin, control, { tickets: 6, credits: 100 });
      tickets = holder.tickets;
      const made = await holder.client.request('POST', '/v1/me/webhooks', {
        url: `${receiver.url}/hooks`,
        events: ['link.claimed'],
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      endpointId = (made.body.webhook as { id: string }).id;
    }, 180_000);

    afterAll(async () => {
      try {
        for (const api of running) await api.stop();
        await worker?.stop();
        // Its database goes with the cluster.
        await stack?.app.close();
        await sim?.close();
        await receiver?.close();
      } finally {
        await cluster?.stop();
      }
    });

    /**
     * Two API processes of the built product on the test's database and Redis, warmed up by claims of a link of
     * their own. Their connections carry the name `claims-api-<i>` (pg_stat_activity.application_name), so the test
     * sees which process a statement in PostgreSQL comes from.
     */
    async function twoApiProcesses(warmUp: Ticket): Promise<ApiProcess[]> {
      const url = stack.config.DATABASE_URL!;
      const apis = await Promise.all(
        [0, 1].map((i) => startApiProcess(stack.config, { DATABASE_URL: `${url}?application_name=${APP_NAME}${i}` })),
      );
      running.push(...apis);
      const link = await makeLink(holder.client, warmUp, { max_clicks: null });
      for (const api of apis) {
        for (let round = 0; round < 5; round++) {
          const answers = await Promise.all(
            Array.from({ length: 4 }, () =>
              fetch(`${api.baseUrl}/v1/links/${link.code}/claim`, {
                method: 'POST',
                headers: { 'user-agent': RECIPIENT_BROWSER, 'idempotency-key': `warm-up-${randomUUID()}` },
                signal: AbortSignal.timeout(TRY_MS),
              }).then((res) => res.status),
            ),
          );
          expect(answers).toEqual([200, 200, 200, 200]);
        }
      }
      return apis;
    }

    /** How many claim statements of each API process wait in PostgreSQL for `waitEvent` (pg_stat_activity). */
    async function claimsWaiting(waitEvent: { type: string } | { event: string }) {
      // A claim's statement, or (committed, its answer waiting for the disk) the process's flush of it: durable().
      const rows = await query<{ name: string; n: number }>(
        `select application_name as name, count(*)::int as n from pg_stat_activity
         where datname = current_database() and state = 'active'
           and (query like '%seatlink_claim_link%' or query like '%pg_logical_emit_message%')
           and ${'type' in waitEvent ? 'wait_event_type' : 'wait_event'} = $1
         group by application_name`,
        ['type' in waitEvent ? waitEvent.type : waitEvent.event],
      );
      return (i: number) => rows.find((r) => r.name === `${APP_NAME}${i}`)?.n ?? 0;
    }

    /** A link limited to LIMIT clicks and an unlimited one, on two tickets of the holder's. */
    async function twoLinks(tickets: [Ticket, Ticket]): Promise<[Link, Link]> {
      const limited = await makeLink(holder.client, tickets[0], { max_clicks: LIMIT });
      const unlimited = await makeLink(holder.client, tickets[1], { max_clicks: null });
      return [
        { name: 'limited', ...limited },
        { name: 'unlimited', ...unlimited },
      ];
    }

    /**
     * CLAIMERS recipients on each link, started one after the other over STORM_MS on the two API processes in turn.
     * Once FAULT_AFTER claims of each link have been answered yes, `fault` begins; the recipients after the first
     * quarter (BEFORE_FAULT) start, paced as before, only when it calls `resume`, so they meet the fault however
     * slowly the first were answered. Resolves when every recipient has its final answer (or has given up).
     */
    async function storm(
      links: readonly Link[],
      apis: readonly ApiProcess[],
      fault: (resume: () => void) => Promise<void>,
    ) {
      const claims: Claim[] = [];
      for (let i = 0; i < CLAIMERS; i++) {
        for (const link of links) {
          claims.push({ link, key: `claim-${randomUUID()}`, status: null, replayed: false, tries: 0, failures: [] });
        }
      }
      const yes = (link: Link) => claims.filter((c) => c.link === link && c.status === 200).length;
      const runs: Promise<void>[] = [];
      let resume!: () => void;
      const resumed = new Promise<void>((resolve) => (resume = resolve));
      const launching = (async () => {
        const gate = Math.floor(claims.length * BEFORE_FAULT);
        let started = performance.now();
        for (const [i, claim] of claims.entries()) {
          if (i === gate) {
            await resumed;
            started = performance.now() - (i * STORM_MS) / claims.length;
          }
          const wait = started + (i * STORM_MS) / claims.length - performance.now();
          if (wait > 0) await sleep(wait);
          // Each link's recipients on the two processes in turn.
          runs.push(claimUntilAnswered(claim, apis, Math.floor(i / links.length) % apis.length));
        }
      })();
      let atFault = { limited: 0, unlimited: 0, started: 0 };
      const faulting = (async () => {
        await until('the storm to be under way', () => links.every((l) => yes(l) >= FAULT_AFTER), 60_000);
        atFault = { limited: yes(links[0]!), unlimited: yes(links[1]!), started: runs.length };
        await fault(resume);
      })().finally(resume);
      await Promise.all([launching, faulting]);
      await Promise.all(runs);
      return { claims, atFault };
    }

    /** What the claimers saw: answers by status, tries, retried claimers, replays, failures by kind. */
    function figuresOf(claims: readonly Claim[]) {
      const failures: Record<string, number> = {};
      for (const c of claims) for (const f of c.failures) failures[f] = (failures[f] ?? 0) + 1;
      return {
        answers: {
          200: claims.filter((c) => c.status === 200).length,
          410: claims.filter((c) => c.status === 410).length,
          none: claims.filter((c) => c.status === null).length,
        },
        tries: claims.reduce((sum, c) => sum + c.tries, 0),
        retried: claims.filter((c) => c.tries > 1).length,
        replayed: claims.filter((c) => c.replayed).length,
        failures,
      };
    }

    /** The link as each place tells it: its events, its counter, its keys, the owner's list and the webhooks. */
    async function placesOf(link: Link) {
      const events = await query<{ position: number; n: number }>(
        `select stream_position as position, (data->>'n')::int as n from events
         where stream_id = $1 and type = 'LinkClicked' order by stream_position`,
        [clickStream(link.distributionId)],
      );
      const [counter] = await query<{ clicks: number }>('select clicks from link_counters where distribution_id = $1', [
        link.distributionId,
      ]);
      const [readModel] = await query<{ clicks: number }>('select clicks from links where distribution_id = $1', [
        link.distributionId,
      ]);
      const keys = await query<{ key: string; n: number }>(
        'select key, n from link_claim_keys where distribution_id = $1',
        [link.distributionId],
      );
      const listed = await holder.client.request('GET', '/v1/tickets');
      expect(listed.status).toBe(200);
      const ticket = (listed.body.tickets as Ticket[]).find((t) => t.distribution?.id === link.distributionId);
      const webhooks = [...(receiver.claimed.get(link.distributionId)?.values() ?? [])];
      return {
        events,
        counter: counter!.clicks,
        readModel: readModel!.clicks,
        keys: new Map(keys.map((k) => [k.key, k.n])),
        listed: ticket?.distribution?.clicks ?? null,
        webhooks,
      };
    }

    const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    const sorted = (ns: Iterable<number>) => [...ns].sort((a, b) => a - b);

    /** The worker has read every event and sent every webhook delivery (each arrived, or the wait gives up). */
    async function settled() {
      await subscriptionsCaughtUp(stack.app, 60_000);
      await until(
        'every webhook delivery to be sent',
        async () =>
          (
            await query<{ n: number }>(
              `select count(*)::int as n from webhook_deliveries where endpoint_id = $1 and status = 'pending'`,
              [endpointId],
            )
          )[0]!.n === 0,
        60_000,
      );
    }

    /**
     * One number for the link everywhere: the recipients told yes (each key's click, replays once), its events, its
     * counter, its keys, the owner's list, the webhooks; exactly LIMIT for the limited link, every recipient's click
     * for the unlimited one.
     */
    async function expectOneNumber(link: Link, claims: readonly Claim[]) {
      const mine = claims.filter((c) => c.link === link);
      const told = mine.filter((c) => c.status === 200);
      const expected = link.name === 'limited' ? LIMIT : CLAIMERS;
      const places = await placesOf(link);
      // Every recipient has a final answer; for the limited link, the others were told its limit is reached.
      expect(mine.filter((c) => c.status === null)).toEqual([]);
      expect(told).toHaveLength(expected);
      expect(mine.filter((c) => c.status === 410 && c.code !== 'LIMIT_REACHED')).toEqual([]);
      // Each key told yes has its click (the key kept with it), one click per key, the clicks 1..N.
      const clicksTold = told.map((c) => places.keys.get(c.key));
      expect(told.filter((c) => !places.keys.has(c.key)).map((c) => c.key)).toEqual([]);
      expect(sorted(clicksTold as number[])).toEqual(oneTo(expected));
      // A key told no was never counted (its click would be one nobody was given).
      expect(mine.filter((c) => c.status === 410 && places.keys.has(c.key)).map((c) => c.key)).toEqual([]);
      expect(places.keys.size).toBe(expected);
      // Each click told is an event with its number, at the position its number gives it: events = answers.
      expect(places.events.map((e) => e.n)).toEqual(oneTo(expected));
      expect(places.events.map((e) => e.position + 1)).toEqual(oneTo(expected));
      // The counter, the read model, the owner's list and the webhooks say the same.
      expect(places.counter).toBe(expected);
      expect(places.readModel).toBe(expected);
      expect(places.listed).toBe(expected);
      expect(places.webhooks).toHaveLength(expected);
      expect(sorted(places.webhooks)).toEqual(oneTo(expected));
    }

    /** `npm run replay`: the built CLI empties every read model and rebuilds it from the events (the worker does). */
    async function rebuild() {
      const child = spawn(process.execPath, [path.resolve(import.meta.dirname, '../../../dist/cli/replay.js')], {
        env: { PATH: process.env.PATH, ...environmentOf(stack.config), LOG_LEVEL: 'error' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      clearTimeout(timer);
      expect(code, output).toBe(0);
      await subscriptionsCaughtUp(stack.app, 60_000);
    }

    /** After a rebuild, each link's read model counts what its events and its counter count. */
    async function expectRebuiltCounts(links: readonly Link[]) {
      for (const link of links) {
        const expected = link.name === 'limited' ? LIMIT : CLAIMERS;
        const places = await placesOf(link);
        expect({ readModel: places.readModel, counter: places.counter, events: places.events.length }).toEqual({
          readModel: expected,
          counter: expected,
          events: expected,
        });
        expect(places.listed).toBe(expected);
      }
      // And every link of the database, those of the other run too.
      const all = await query<{ code: string; read_model: number; counter: number; events: number }>(
        `select c.code, l.clicks as read_model, c.clicks as counter,
                (select count(*)::int from events e
                  where e.stream_id = '${clickStream('')}' || c.distribution_id and e.type = 'LinkClicked') as events
         from link_counters c join links l using (distribution_id)`,
      );
      expect(all.filter((r) => r.read_model !== r.counter || r.counter !== r.events)).toEqual([]);
    }

    /** The run's figures (printed before they are judged, so a failing run shows them too). */
    async function report(fault: string, links: readonly Link[], claims: readonly Claim[], extra: object) {
      const lines = [`${fault}: ${JSON.stringify(extra)}`];
      for (const link of links) {
        const f = figuresOf(claims.filter((c) => c.link === link));
        const p = await placesOf(link);
        lines.push(
          `  ${link.name}: answers 200 ${f.answers[200]}, 410 ${f.answers[410]}, none ${f.answers.none}; ` +
            `tries ${f.tries}, retried ${f.retried}, replayed ${f.replayed}, ` +
            `failed tries ${JSON.stringify(f.failures)}; ` +
            `events ${p.events.length}, counter ${p.counter}, keys ${p.keys.size}, read model ${p.readModel}, ` +
            `list ${p.listed}, webhooks ${p.webhooks.length}`,
        );
      }
      console.info(lines.join('\n'));
    }

    /**
     * After a storm: once the worker has read every event and sent every webhook, the run's figures are printed and
     * judged — one number per link everywhere, some claims whose answer the fault lost answered on a retry as the
     * clicks they had been given (replayed), no event parked — and a rebuild of the read models gives the same counts.
     */
    async function judge(fault: string, links: readonly Link[], claims: readonly Claim[], extra: object) {
      const unsettled = await settled().then(
        () => null,
        (err: Error) => err,
      );
      await report(fault, links, claims, { ...extra, arrivals: receiver.arrivals });
      if (unsettled) throw unsettled;
      for (const link of links) await expectOneNumber(link, claims);
      expect(claims.filter((c) => c.replayed).length).toBeGreaterThan(0);
      expect(await query(`select id from parked_events where status = 'parked'`)).toEqual([]);
      await rebuild();
      await expectRebuiltCounts(links);
    }

    it('one API process killed (SIGKILL) mid-storm: each answer is an event, a counted click, a webhook', async () => {
      const apis = await twoApiProcesses(tickets[0]!);
      const links = await twoLinks([tickets[1]!, tickets[2]!]);
      const { claims, atFault } = await storm(links, apis, async (resume) => {
        // The kill lands while claims of the process are in PostgreSQL, counted after it is gone (their answers
        // lost): the test holds the links' counter rows until statements of both processes wait for them, kills the
        // first process and lets them go. (Held well inside the claims' lock timeout, DB_LOCK_TIMEOUT_MS.)
        const rows = await cluster.connect(new URL(stack.config.DATABASE_URL!).pathname.slice(1));
        try {
          await rows.query('begin');
          await rows.query('select 1 from link_counters where distribution_id = any($1::uuid[]) for update', [
            links.map((l) => l.distributionId),
          ]);
          resume();
          await until('claims of both API processes to wait for the counter rows', async () => {
            const waiting = await claimsWaiting({ type: 'Lock' });
            return waiting(0) > 0 && waiting(1) > 0;
          });
          await apis[0]!.signal('SIGKILL');
        } finally {
          await rows.query('rollback').catch(() => undefined);
          await rows.end();
        }
      });
      // Claims counted for the dead process are answered on the other one, replayed.
      await judge('an API process killed (SIGKILL)', links, claims, { atFault });
      await apis[1]!.stop();
    }, 300_000);

    it('PostgreSQL restarted (immediate) mid-storm: each answer is an event, a counted click, a webhook', async () => {
      const apis = await twoApiProcesses(tickets[3]!);
      const links = await twoLinks([tickets[4]!, tickets[5]!]);
      let restartMs = 0;
      const { claims, atFault } = await storm(links, apis, async (resume) => {
        // The restart lands while claims are committed and not yet answered: durable commits (the flush a claim's
        // answer waits for) wait for a synchronous standby that never answers (they are on disk here, and stay
        // unanswered) until some wait so (two, if they come within a second); the setting is then taken out of the configuration again (the running server
        // keeps it), and the server is restarted as a crash would leave it. Those claims come back 503 and are counted
        // all the same.
        const standby = (set: boolean) =>
          query(
            set
              ? `alter system set synchronous_standby_names = 'claims_standby_never_there'`
              : 'alter system reset synchronous_standby_names',
          );
        await standby(true);
        await query('select pg_reload_conf()');
        let restarted = false;
        try {
          resume();
          const committed = async () => {
            const waiting = await claimsWaiting({ event: 'SyncRep' });
            return waiting(0) + waiting(1);
          };
          // Durable commits wait there as long as claims come; a product that answered claims before they were
          // durable has none that wait, and is restarted under the storm all the same (its answers are judged below).
          await until('a committed claim to wait for the standby', async () => (await committed()) > 0, 5000).catch(
            () => undefined,
          );
          // One of each link, if it comes soon (the statements of a link wait in turn, so one each at most).
          await until('a committed claim of each link', async () => (await committed()) >= links.length, 1000).catch(
            () => undefined,
          );
          await standby(false);
          const began = performance.now();
          await cluster.restart();
          restartMs = Math.round(performance.now() - began);
          restarted = true;
        } finally {
          if (!restarted) {
            await standby(false);
            await query('select pg_reload_conf()');
          }
        }
      });
      // The claims committed before the restart and never answered are answered after it, replayed.
      await judge('PostgreSQL restarted (immediate)', links, claims, { atFault, restartMs });
      for (const api of apis) await api.stop();
    }, 300_000);
  });
});
