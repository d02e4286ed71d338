import { createHash, randomUUID } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { QueueName } from '@seatlink/contracts';
import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import { type Database, type Executor, queryRows } from '../../infra/db/database.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import { TokenCipher } from '../../infra/wallet/token-cipher.js';
import { type SendOutcome, WebhookSender } from './webhook-sender.js';
import { WebhooksCommandMessage } from './webhooks.command.js';
import { webhookDeliveries, webhookEndpointHealth, webhookRoutes } from './webhooks.schema.js';

export const DELIVER_WEBHOOKS_JOB = 'deliver-webhooks';
/**
 * A job per delivery, try and the second it falls due: queuing the same again (the fan-out, the sweep, a job that finds
 * it not due yet) is a no-op while it is pending, and never the running job's own id when it falls due later.
 */
export const deliveryJobId = (deliveryId: string, attempts: number, dueMs: number) =>
  `wh-${deliveryId}-${attempts}-${Math.ceil(dueMs / 1000)}`;
/**
 * The fan-out's job of an endpoint's order key for the second its new deliveries fall due (one job delivers them all).
 * The sweep queues a first try under the same id, so a key whose job is still waiting in the queue gets no second one:
 * a sweep during a backlog of 10,000 keys queued 10,000 jobs more, each finding nothing to do, ahead of every new one.
 */
export const keyJobId = (endpointId: string, orderKey: string, dueMs: number) =>
  `wh-${endpointId}-${createHash('sha1').update(orderKey).digest('hex').slice(0, 16)}-${Math.ceil(dueMs / 1000)}`;
/**
 * The job of a key's head as the sweep queues it, from what the database says of the head: its key's job for a first
 * try, its own for a retry. A job queued for a head that is waiting (an endpoint full, a retry) uses it too, so the
 * sweep finds that job and queues no other.
 */
export const headJobId = (
  head: { id: string; endpointId: string; orderKey: string; attempts: number },
  dueMs: number,
) =>
  head.attempts === 0 ? keyJobId(head.endpointId, head.orderKey, dueMs) : deliveryJobId(head.id, head.attempts, dueMs);
/** Deliveries asked for by hand (a resend, a test event): each its own order key, tried once. */
export const MANUAL_KEY = 'manual:';

/** Deliveries one job makes in a row before it hands the rest to a new job (so one busy link does not hog a worker). */
const RUN_MAX = 100;
/** The longest wait between two tries. */
const BACKOFF_CAP_MS = 6 * 3600 * 1000;
/** Delivered and given-up deliveries are kept this long in the log ... */
const KEPT = '30 days';
/** ... and purged this many at a time. */
const PURGED_AT_ONCE = 10_000;
/** A key found waiting for its try is looked at again after at least this long (clocks of two machines differ). */
const MIN_WAIT_MS = 250;
/** A secret sealed with a key this server does not have (WALLET_TOKEN_KEY changed): a failed try, as any other. */
const SECRET_UNREADABLE = 'The signing secret cannot be read (the server key changed): roll the secret';
const DISABLE_ID_NAMESPACE = '9b4d2f6e-1a3c-4e5b-8d7f-0c2e4a6b8d13';

type Delivery = typeof webhookDeliveries.$inferSelect;
/** One job's run over one order key. */
interface Run {
  endpointId: string;
  /** The endpoint has failed tries not cleared by a success (as read with it, then as this run's tries went). */
  failing: boolean;
  /** The last try of this run was delivered (the endpoint's failures are cleared at the run's end). */
  lastOk: boolean | null;
}
type Step = 'next' | 'done';
/**
 * The advisory lock class of an endpoint's tries (the second key is the endpoint's hash): taken for the moment a try is
 * leased, so two workers never both take the endpoint's last free slot.
 */
const ENDPOINT_SLOTS_LOCK = 0x5e47_0001;
/**
 * A key whose endpoint has all its slots taken is due again after this long (not waited for: the worker goes on with
 * other endpoints). The same wait for every key, so the jobs of one second are one job a key (see headJobId).
 */
const FULL_WAIT_MS = 1000;

/** The id of the key's next delivery, in the order they happened (a subquery). */
const headIdOf = (endpointId: string, orderKey: string) =>
  sql`(select id from webhook_deliveries
        where endpoint_id = ${endpointId} and order_key = ${orderKey} and status = 'pending'
        order by occurred_at, seq limit 1)`;

/**
 * Delivers webhooks: the deliveries of one endpoint and order key go one after the other, each tried until it is
 * delivered or three days (WEBHOOK_RETRY_FOR_MS) have passed, the waits doubling from WEBHOOK_BACKOFF_MS. A try leases
 * its delivery (no two workers try one at once, whatever the queue runs twice). An endpoint has at most
 * WEBHOOK_ENDPOINT_CONCURRENCY tries under way at once, counted on those leases in the database (so across workers and
 * processes; a worker that dies mid-try frees its slot when its lease passes): a key whose endpoint is full is queued
 * again a moment later, and its worker goes on with other work (docs/architecture.md "Workers and jobs"). An endpoint that keeps failing is
 * disabled through its stream (WebhookEndpointDisabled; its owner is e-mailed). Nothing here trusts the queue to keep
 * its jobs: the sweep queues again whatever is due and not being tried.
 */
@Injectable()
export class WebhookDeliveries {
  private readonly logger = new Logger('Webhooks');
  /** Tests resolve names their own way (a name that resolves to a private address). */
  lookup: LookupFunction | undefined;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly sender: WebhookSender,
    private readonly cipher: TokenCipher,
    private readonly commandBus: CommandBus,
  ) {}

  /**
   * Delivers the endpoint's deliveries of this order key that are due, in order. Each costs two statements besides its
   * try: its lease (which reads the endpoint as it is now: deleted, turned off, moved or its secret rolled, the next try
   * knows), and its outcome.
   */
  async deliver(endpointId: string, orderKey: string): Promise<void> {
    const [health] = await this.database.db
      .select({ failures: webhookEndpointHealth.consecutiveFailures })
      .from(webhookEndpointHealth)
      .where(eq(webhookEndpointHealth.endpointId, endpointId));
    const run: Run = { endpointId, failing: (health?.failures ?? 0) > 0, lastOk: null };
    try {
      for (let i = 0; i < RUN_MAX; i++) {
        if ((await this.deliverHead(run, orderKey)) === 'done') return;
      }
      const [head] = await this.head(endpointId, orderKey);
      if (head) await this.enqueue(head, 0);
    } finally {
      // Delivered at last: its run of failures is over (one statement a run, not one a delivery).
      // (Runs of other keys may have failed meanwhile: a success clears what they counted too.)
      if (run.lastOk && !orderKey.startsWith(MANUAL_KEY)) await this.clearFailures(endpointId);
    }
  }

  /** Queues a new delivery of `payload` to the endpoint at once (a test event, a resend): tried once. */
  async deliverNow(d: { endpointId: string; userId: string; eventId: string; type: string; payload: string }) {
    const id = randomUUID();
    const now = new Date();
    const [row] = await this.database.db
      .insert(webhookDeliveries)
      .values({ ...d, id, orderKey: `${MANUAL_KEY}${id}`, createdAt: now, occurredAt: now, nextAttemptAt: now })
      .returning();
    await this.enqueue(row!, 0).catch((err: unknown) => this.logger.warn(`not queued: ${safeErrorMessage(err)}`));
    return row!;
  }

  /**
   * Queues again every order key whose next delivery is due and not being tried (a queue that lost its jobs, a worker
   * that died mid-try, an endpoint enabled again), the longest due first; gives up what waited for an endpoint that is
   * off for longer than deliveries are retried. Answers how many keys were queued.
   */
  async sweep(endpointId?: string): Promise<number> {
    const heads = await queryRows<{
      id: string;
      endpoint_id: string;
      order_key: string;
      attempts: number;
      due: Date | string;
    }>(
      this.database.db,
      sql`select h.id, h.endpoint_id, h.order_key, h.attempts, h.next_attempt_at as due
            from (select distinct on (endpoint_id, order_key) id, endpoint_id, order_key, attempts, next_attempt_at,
                         leased_until
                    from webhook_deliveries
                   where status = 'pending' ${endpointId ? sql`and endpoint_id = ${endpointId}` : sql``}
                   order by endpoint_id, order_key, occurred_at, seq) h
            join webhook_routes r on r.endpoint_id = h.endpoint_id
           where h.next_attempt_at <= now() and (h.leased_until is null or h.leased_until < now())
             and (r.enabled or r.deleted or h.order_key like ${`${MANUAL_KEY}%`})
           order by h.next_attempt_at
           limit 1000`,
    );
    for (const head of heads) {
      await this.queue.add(
        QueueName.Webhooks,
        DELIVER_WEBHOOKS_JOB,
        { endpointId: head.endpoint_id, orderKey: head.order_key },
        {
          jobId: headJobId(
            { id: head.id, endpointId: head.endpoint_id, orderKey: head.order_key, attempts: head.attempts },
            new Date(head.due).getTime(),
          ),
        },
      );
    }
    if (!endpointId) {
      await this.database.query(
        `update webhook_deliveries
            set status = 'failed', next_attempt_at = null, leased_until = null,
                last_error = 'Not delivered: the endpoint was off for longer than deliveries are retried'
          where id in (select d.id from webhook_deliveries d join webhook_routes r on r.endpoint_id = d.endpoint_id
                        where d.status = 'pending' and not r.enabled and not r.deleted
                          and d.created_at < now() - $1::interval
                        limit ${PURGED_AT_ONCE})`,
        [`${this.config.WEBHOOK_RETRY_FOR_MS} milliseconds`],
      );
    }
    return heads.length;
  }

  /** Drops delivered and given-up deliveries older than KEPT from the log, PURGED_AT_ONCE at a time; answers how many. */
  async purge(): Promise<number> {
    let purged = 0;
    for (;;) {
      const rows = await this.database.query<{ id: string }>(
        `delete from webhook_deliveries
          where id in (select id from webhook_deliveries
                        where created_at < now() - interval '${KEPT}' and status <> 'pending'
                        limit ${PURGED_AT_ONCE})
        returning id`,
      );
      purged += rows.length;
      if (rows.length < PURGED_AT_ONCE) return purged;
    }
  }

  private head(endpointId: string, orderKey: string): Promise<Delivery[]> {
    return this.database.db
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.orderKey, orderKey),
          eq(webhookDeliveries.status, 'pending'),
        ),
      )
      .orderBy(asc(webhookDeliveries.occurredAt), asc(webhookDeliveries.seq))
      .limit(1);
  }

  /**
   * Leases the key's head for a try, when the endpoint has a free slot (answers 'full' when it has none). The slots are
   * the endpoint's leases that have not passed; the endpoint's lock, held for this short transaction only, makes the
   * count and the lease one step for every worker.
   */
  private lease(endpointId: string, orderKey: string, manual: boolean) {
    return this.database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ENDPOINT_SLOTS_LOCK}, hashtext(${endpointId}))`);
      const [busy] = await queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from webhook_deliveries
             where endpoint_id = ${endpointId} and status = 'pending'
               and leased_until is not null and leased_until > now()`,
      );
      if ((busy?.n ?? 0) >= this.config.WEBHOOK_ENDPOINT_CONCURRENCY) return 'full' as const;
      return this.leaseHead(tx, endpointId, orderKey, manual);
    });
  }

  /**
   * The head of the key, leased if it is due, nobody is trying any delivery of the key (one at a time, in order), and
   * the endpoint is there and on (a test or a resend goes to one turned off all the same); with where it goes and the
   * secrets it is signed with (the one before the current one only in its grace).
   */
  private async leaseHead(tx: Executor, endpointId: string, orderKey: string, manual: boolean) {
    const [leased] = await tx
      .update(webhookDeliveries)
      .set({ leasedUntil: sql`now() + ${`${this.config.WEBHOOK_TIMEOUT_MS + 10_000} milliseconds`}::interval` })
      .where(
        and(
          eq(webhookDeliveries.id, headIdOf(endpointId, orderKey)),
          sql`(${webhookDeliveries.leasedUntil} is null or ${webhookDeliveries.leasedUntil} < now())`,
          sql`${webhookDeliveries.nextAttemptAt} <= now()`,
          sql`not exists (select 1 from webhook_deliveries x
                           where x.endpoint_id = ${endpointId} and x.order_key = ${orderKey}
                             and x.status = 'pending' and x.leased_until is not null
                             and x.leased_until > now())`,
          sql`exists (select 1 from webhook_routes r
                       where r.endpoint_id = ${endpointId} and not r.deleted and (r.enabled or ${manual}))`,
        ),
      )
      .returning({
        ...getTableColumns(webhookDeliveries),
        url: sql<string>`(select url from webhook_routes where endpoint_id = ${endpointId})`,
        secretSealed: sql<string>`(select secret_sealed from webhook_routes where endpoint_id = ${endpointId})`,
        previousSecretSealed: sql<string | null>`(select previous_secret_sealed from webhook_routes
                                                   where endpoint_id = ${endpointId} and previous_secret_until > now())`,
      });
    return leased ?? null;
  }

  private async deliverHead(run: Run, orderKey: string): Promise<Step> {
    const { endpointId } = run;
    const manual = orderKey.startsWith(MANUAL_KEY);
    const leased = await this.lease(endpointId, orderKey, manual);
    if (leased === 'full') {
      await this.postpone(endpointId, orderKey, FULL_WAIT_MS);
      return 'done';
    }
    if (!leased) return this.notLeased(endpointId, orderKey, manual);
    const head = leased;
    const secrets: string[] = [];
    try {
      secrets.push(this.cipher.decrypt(head.secretSealed));
      // A rolled secret's predecessor, in its grace (by the database's clock, read with the lease), signs beside it.
      if (head.previousSecretSealed) secrets.push(this.cipher.decrypt(head.previousSecretSealed));
    } catch (err) {
      this.logger.error(`endpoint ${endpointId}: its secret cannot be read: ${safeErrorMessage(err)}`);
    }
    const outcome: SendOutcome =
      secrets.length === 0
        ? { ok: false, status: null, latencyMs: 0, error: SECRET_UNREADABLE }
        : await this.sender.send(head.url, head.payload, secrets, {}, this.lookup);
    const attempts = head.attempts + 1;
    const tried = new Date();
    const result = {
      attempts,
      lastStatus: outcome.status,
      lastLatencyMs: outcome.latencyMs,
      lastError: outcome.error,
      lastAttemptAt: tried,
      leasedUntil: null,
    };
    run.lastOk = outcome.ok;
    if (outcome.ok) {
      await this.database.db
        .update(webhookDeliveries)
        .set({ ...result, status: 'delivered', nextAttemptAt: null, lastError: null })
        // Delivered is what happened, whatever was decided meanwhile (its endpoint deleted while it was on its way).
        .where(eq(webhookDeliveries.id, head.id));
      if (run.failing && !manual) {
        await this.clearFailures(endpointId);
        run.failing = false;
      }
      return 'next';
    }
    // Retried with doubling waits, never past the end of its retries (the last try falls on it).
    const retryEnd = head.createdAt.getTime() + this.config.WEBHOOK_RETRY_FOR_MS;
    const wait = Math.min(BACKOFF_CAP_MS, this.config.WEBHOOK_BACKOFF_MS * 2 ** (attempts - 1));
    const next = Math.min(tried.getTime() + wait, retryEnd);
    const giveUp = manual || next <= tried.getTime();
    await this.database.db
      .update(webhookDeliveries)
      .set({ ...result, status: giveUp ? 'failed' : 'pending', nextAttemptAt: giveUp ? null : new Date(next) })
      // (Given up meanwhile, its endpoint deleted: it stays so.)
      .where(and(eq(webhookDeliveries.id, head.id), eq(webhookDeliveries.status, 'pending')));
    if (!manual) {
      run.failing = true;
      await this.failed(head.userId, endpointId, tried, outcome.error ?? 'failed');
    }
    if (giveUp) return 'next';
    await this.enqueue({ ...head, attempts }, next - tried.getTime());
    return 'done';
  }

  /**
   * The key's head waits for a free slot of its endpoint: it is due again in `ms` (not sooner than it was), and queued
   * for then under the id the sweep gives it, so a sweep meanwhile queues it no second time.
   */
  private async postpone(endpointId: string, orderKey: string, ms: number) {
    const due = new Date(Date.now() + ms);
    const [head] = await this.database.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`greatest(${webhookDeliveries.nextAttemptAt}, ${due.toISOString()}::timestamptz)` })
      .where(
        and(
          eq(webhookDeliveries.id, headIdOf(endpointId, orderKey)),
          sql`(${webhookDeliveries.leasedUntil} is null or ${webhookDeliveries.leasedUntil} < now())`,
        ),
      )
      .returning();
    if (head) await this.enqueueWaiting(head);
  }

  /**
   * Queues a head that waits (not due yet, or its endpoint full) for when it is due, under the id the sweep gives it.
   * One due already (a lease missed by a hair) gets a job of its own: that id may be the running job's, which the queue
   * would take as queued.
   */
  private async enqueueWaiting(head: Delivery) {
    const dueMs = head.nextAttemptAt?.getTime() ?? 0;
    if (dueMs <= Date.now()) return this.enqueue(head, MIN_WAIT_MS);
    await this.queue.add(
      QueueName.Webhooks,
      DELIVER_WEBHOOKS_JOB,
      { endpointId: head.endpointId, orderKey: head.orderKey },
      { jobId: headJobId(head, dueMs), delayMs: Math.max(MIN_WAIT_MS, dueMs - Date.now()) },
    );
  }

  private async enqueue(head: Pick<Delivery, 'id' | 'endpointId' | 'orderKey' | 'attempts'>, delayMs: number) {
    await this.queue.add(
      QueueName.Webhooks,
      DELIVER_WEBHOOKS_JOB,
      { endpointId: head.endpointId, orderKey: head.orderKey },
      {
        jobId: deliveryJobId(head.id, head.attempts, Date.now() + delayMs),
        ...(delayMs > 0 ? { delayMs } : {}),
      },
    );
  }

  /**
   * Nothing was leased: none left; another worker is trying the key (it goes on with the rest); the endpoint is gone
   * (what waits for it fails), off (it waits) or not read by the fan-out yet (the sweep comes back); or the head is not
   * due, and its try is queued for when it is (by this clock; the database's may differ a little, so never at once).
   */
  private async notLeased(endpointId: string, orderKey: string, manual: boolean): Promise<Step> {
    const [route] = await this.database.db
      .select({ enabled: webhookRoutes.enabled, deleted: webhookRoutes.deleted })
      .from(webhookRoutes)
      .where(eq(webhookRoutes.endpointId, endpointId));
    if (route?.deleted) {
      await failDeleted(this.database.db, endpointId);
      return 'done';
    }
    if (!route || (!route.enabled && !manual)) return 'done';
    const [head] = await this.head(endpointId, orderKey);
    if (!head || (head.leasedUntil && head.leasedUntil.getTime() > Date.now())) return 'done';
    await this.enqueueWaiting(head);
    return 'done';
  }

  /** The endpoint's run of failed tries is over (a statement that writes only when there was one). */
  private async clearFailures(endpointId: string) {
    await this.database.db
      .update(webhookEndpointHealth)
      .set({ consecutiveFailures: 0, failingSince: null, lastSuccessAt: new Date() })
      .where(and(eq(webhookEndpointHealth.endpointId, endpointId), sql`consecutive_failures > 0`));
  }

  /** Counts a failed try against the endpoint; past the limits, Seatlink disables it. */
  private async failed(userId: string, endpointId: string, at: Date, error: string) {
    const [health] = await this.database.db
      .insert(webhookEndpointHealth)
      .values({ endpointId, consecutiveFailures: 1, failingSince: at })
      .onConflictDoUpdate({
        target: webhookEndpointHealth.endpointId,
        set: {
          consecutiveFailures: sql`${webhookEndpointHealth.consecutiveFailures} + 1`,
          failingSince: sql`coalesce(${webhookEndpointHealth.failingSince}, excluded.failing_since)`,
        },
      })
      .returning();
    const since = health!.failingSince ?? at;
    if (health!.consecutiveFailures < this.config.WEBHOOK_DISABLE_AFTER_FAILURES) return;
    if (at.getTime() - since.getTime() < this.config.WEBHOOK_DISABLE_AFTER_MS) return;
    const reason =
      `Seatlink turned this endpoint off after ${health!.consecutiveFailures} failed deliveries in a row ` +
      `since ${since.toISOString()} (the last: ${error}). Deliveries wait until you turn it on again.`;
    try {
      await this.commandBus.execute(
        new WebhooksCommandMessage(
          {
            type: 'DisableFailingWebhookEndpoint',
            data: { userId, endpointId, reason, now: at.toISOString() },
          },
          { commandId: uuidv5(`${endpointId}/${since.toISOString()}`, DISABLE_ID_NAMESPACE) },
        ),
      );
    } catch (err) {
      // The next failure tries again.
      this.logger.warn(`endpoint ${endpointId} was not disabled: ${safeErrorMessage(err)}`);
    }
  }
}

/** What waits for a deleted endpoint fails at once (not at its next try, hours later maybe). */
export async function failDeleted(db: Executor, endpointId: string | readonly string[]): Promise<void> {
  const ids = typeof endpointId === 'string' ? [endpointId] : [...endpointId];
  if (ids.length === 0) return;
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: 'The endpoint was deleted', nextAttemptAt: null, leasedUntil: null })
    .where(and(inArray(webhookDeliveries.endpointId, ids), eq(webhookDeliveries.status, 'pending')));
}
