import { Inject, Injectable } from '@nestjs/common';
import { WEBHOOK_TICKETS_PER_DELIVERY } from '@seatlink/contracts';
import { and, eq, inArray, param, type SQL, sql } from 'drizzle-orm';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import { type Database, type Executor, queryRows, type Tx } from '../../infra/db/database.js';
import { deliveryIdOf, type OutgoingEvent, ticketBatchesOf } from './webhook-events.js';
import { webhookDeliveries, webhookTicketChanges } from './webhooks.schema.js';

/** A ticket change collected for an endpoint that asked for `tickets.synced`. */
export interface TicketChangeRow {
  endpointId: string;
  /** The ticket event's id. */
  eventId: string;
  userId: string;
  accountId: string;
  ticketId: string;
  /** The entry of the `tickets` list, as JSON. */
  item: string;
  recordedAt: Date;
}

/** What waits for an endpoint's route: whether its collected changes may be sent. */
export interface RouteStanding {
  /** Deleted, or turned off by its owner: what was collected for it is dropped. */
  dropped: boolean;
  /** On now (its deliveries get a job at once). */
  enabled: boolean;
}

/** One account's batch of waiting changes for one endpoint, made into `tickets.synced` events. */
export interface TicketBatch {
  endpointId: string;
  events: OutgoingEvent[];
}

/** Rows per insert statement. */
const CHUNK = 500;
/** (endpoint, account) pairs one overdue sweep sends at most. */
const OVERDUE_PAIRS = 100;
/** Taken changes are kept this long (as deliveries are), then purged this many at a time. */
const KEPT = '30 days';
const PURGED_AT_ONCE = 10_000;

/**
 * Collects ticket changes, one parameter per column whatever their number; a change collected already (a batch
 * applied again, a replay) is left as it is, taken or not, so it is never sent twice.
 */
export async function insertTicketChanges(tx: Executor, rows: readonly TicketChangeRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const column = <T>(of: (r: TicketChangeRow) => T) => param(chunk.map(of));
    await tx.execute(sql`
      insert into webhook_ticket_changes
        (endpoint_id, event_id, user_id, account_id, ticket_id, item, recorded_at)
      select * from unnest(${column((r) => r.endpointId)}::uuid[], ${column((r) => r.eventId)}::uuid[],
                           ${column((r) => r.userId)}::uuid[], ${column((r) => r.accountId)}::uuid[],
                           ${column((r) => r.ticketId)}::uuid[], ${column((r) => r.item)}::text[],
                           ${column((r) => r.recordedAt.toISOString())}::timestamptz[])
      on conflict (endpoint_id, event_id) do nothing`);
  }
}

/**
 * Takes the waiting changes `where` selects (locked, so two takers never both take one: the fan-out waits for a lock,
 * the overdue sweep skips what is locked) and makes them into batches of at most WEBHOOK_TICKETS_PER_DELIVERY tickets
 * per endpoint and account, in the order they were recorded; marks each change with the event that took it, or
 * deletes those of an endpoint that is gone or off (`standing`). `trigger`: what sends them (its id makes the events'
 * ids), or null to derive it from each batch's first change (sent after the wait).
 */
export async function takeTicketChanges(
  tx: Tx,
  where: SQL,
  options: {
    trigger: string | null;
    at: Date;
    finished: boolean;
    skipLocked: boolean;
    standing: (endpointId: string) => Promise<RouteStanding | null> | RouteStanding | null;
  },
): Promise<TicketBatch[]> {
  const rows = await queryRows<{
    endpoint_id: string;
    event_id: string;
    user_id: string;
    account_id: string;
    item: string;
  }>(
    tx,
    sql`select endpoint_id, event_id, user_id, account_id, item from webhook_ticket_changes
         where batch_event_id is null and ${where}
         order by seq
         for update ${options.skipLocked ? sql`skip locked` : sql``}`,
  );
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.endpoint_id}/${row.account_id}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  const batches: TicketBatch[] = [];
  for (const group of groups.values()) {
    const { endpoint_id: endpointId, account_id: accountId, user_id: userId } = group[0]!;
    const taken = (ids: string[]) =>
      and(eq(webhookTicketChanges.endpointId, endpointId), inArray(webhookTicketChanges.eventId, ids));
    const standing = await options.standing(endpointId);
    if (!standing || standing.dropped) {
      await tx.delete(webhookTicketChanges).where(taken(group.map((r) => r.event_id)));
      continue;
    }
    const events = ticketBatchesOf({
      trigger: options.trigger ?? group[0]!.event_id,
      endpointId,
      userId,
      accountId,
      at: options.at.toISOString(),
      finished: options.finished,
      entries: group.map((r) => r.item),
    });
    const per = WEBHOOK_TICKETS_PER_DELIVERY;
    for (const [i, event] of events.entries()) {
      const ids = group.slice(i * per, (i + 1) * per).map((r) => r.event_id);
      await tx.update(webhookTicketChanges).set({ batchEventId: event.id }).where(taken(ids));
    }
    batches.push({ endpointId, events });
  }
  return batches;
}

/**
 * The overdue side of `tickets.synced`: changes that waited WEBHOOK_BATCH_WAIT_MS for a sync that never said it
 * finished (it died half-way, its retries spent) go without it, at the sweep (docs/architecture.md "Workers and jobs").
 */
@Injectable()
export class WebhookTicketBatches {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Sends the waiting changes of every endpoint and account whose oldest change waited longer than
   * WEBHOOK_BATCH_WAIT_MS, as deliveries due now (the sweep that follows queues them). Answers how many deliveries.
   */
  async sendOverdue(): Promise<number> {
    return this.database.db.transaction(async (tx) => {
      const now = new Date();
      const batches = await takeTicketChanges(
        tx,
        sql`(endpoint_id, account_id) in (
              select endpoint_id, account_id from webhook_ticket_changes
               where batch_event_id is null
                 and recorded_at < now() - ${`${this.config.WEBHOOK_BATCH_WAIT_MS} milliseconds`}::interval
               group by endpoint_id, account_id
               limit ${OVERDUE_PAIRS})`,
        {
          trigger: null,
          at: now,
          finished: false,
          skipLocked: true,
          standing: async (endpointId) => {
            const [route] = await queryRows<{ enabled: boolean; held: boolean; deleted: boolean }>(
              tx,
              sql`select enabled, held, deleted from webhook_routes where endpoint_id = ${endpointId}`,
            );
            return route ? { dropped: route.deleted || !(route.enabled || route.held), enabled: route.enabled } : null;
          },
        },
      );
      const rows = batches.flatMap(({ endpointId, events }) =>
        events.map((e) => ({
          id: deliveryIdOf(e.id, endpointId),
          endpointId,
          userId: e.userId,
          orderKey: e.orderKey,
          eventId: e.id,
          type: e.type,
          payload: e.payload,
          createdAt: now,
          occurredAt: now,
          nextAttemptAt: now,
        })),
      );
      for (let i = 0; i < rows.length; i += CHUNK) {
        await tx
          .insert(webhookDeliveries)
          .values(rows.slice(i, i + CHUNK))
          .onConflictDoNothing();
      }
      return rows.length;
    });
  }

  /** Drops taken changes older than deliveries are kept; answers how many. */
  async purge(): Promise<number> {
    let purged = 0;
    for (;;) {
      const rows = await this.database.query<{ seq: string }>(
        `delete from webhook_ticket_changes
          where (endpoint_id, event_id) in (
                  select endpoint_id, event_id from webhook_ticket_changes
                   where recorded_at < now() - interval '${KEPT}' and batch_event_id is not null
                   limit ${PURGED_AT_ONCE})
        returning seq`,
      );
      purged += rows.length;
      if (rows.length < PURGED_AT_ONCE) return purged;
    }
  }
}
