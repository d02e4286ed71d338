import type { AuditEntry, AuditEventType, AuditQuery, AuditStatus } from '@seatlink/contracts';
import { and, desc, eq, gte, inArray, like, lt, lte, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../infra/db/database.js';
import { auditEntries } from '../distribution.schema.js';

/** `LIKE` of what a value starts with, its wildcards taken literally. */
const startsWith = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type AuditFilters = Omit<AuditQuery, 'limit' | 'offset'>;

function conditions(userId: string, q: AuditFilters): SQL | undefined {
  return and(
    eq(auditEntries.userId, userId),
    q.start_date ? gte(auditEntries.createdAt, new Date(q.start_date)) : undefined,
    q.end_date ? lte(auditEntries.createdAt, new Date(q.end_date)) : undefined,
    q.event_type.length > 0 ? inArray(auditEntries.eventType, q.event_type) : undefined,
    q.status.length > 0 ? inArray(auditEntries.status, q.status) : undefined,
    q.ticket_id ? like(auditEntries.ticketId, startsWith(q.ticket_id)) : undefined,
    q.distribution_id ? like(auditEntries.distributionId, startsWith(q.distribution_id)) : undefined,
    q.ip_address ? like(auditEntries.ipAddress, startsWith(q.ip_address)) : undefined,
  );
}

type AuditRow = typeof auditEntries.$inferSelect;

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    event_type: row.eventType as AuditEventType,
    event_data: {
      ...row.eventData,
      status: row.status as AuditStatus,
      ticket_id: row.ticketId,
      distribution_id: row.distributionId,
    },
    metadata: { ip_address: row.ipAddress, bulk_action: row.bulkAction },
  };
}

/** A page of a user's audit log, newest first (SPEC.md §7 audits query). */
export async function listAudits(db: Executor, userId: string, q: AuditQuery): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(auditEntries)
    .where(conditions(userId, q))
    .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
    .limit(q.limit)
    .offset(q.offset);
  return rows.map(toAuditEntry);
}

/** Every entry of the filtered view, newest first, a batch at a time (keyset: the CSV export of any size). */
export async function* auditBatches(
  db: Executor,
  userId: string,
  q: AuditFilters,
  batchSize: number,
  maxRows: number,
): AsyncGenerator<AuditEntry[]> {
  let after: { createdAt: Date; id: string } | null = null;
  let sent = 0;
  while (sent < maxRows) {
    const cursor: { createdAt: Date; id: string } | null = after;
    const rows: AuditRow[] = await db
      .select()
      .from(auditEntries)
      .where(
        and(
          conditions(userId, q),
          cursor
            ? or(
                lt(auditEntries.createdAt, cursor.createdAt),
                and(eq(auditEntries.createdAt, cursor.createdAt), lt(auditEntries.id, cursor.id)),
              )
            : undefined,
        ),
      )
      .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
      .limit(Math.min(batchSize, maxRows - sent));
    if (rows.length === 0) return;
    sent += rows.length;
    const last: AuditRow = rows[rows.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
    yield rows.map(toAuditEntry);
    if (rows.length < batchSize) return;
  }
}
