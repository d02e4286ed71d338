import type { AuditEntry, AuditEventType, AuditKind, AuditNames, AuditQuery, AuditStatus } from '@seatlink/contracts';
import { and, desc, eq, gte, inArray, like, lt, lte, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../infra/db/database.js';
import { auditEntries, auditNames } from '../audit.schema.js';

/** `LIKE` of what a value starts with, its wildcards taken literally. */
const startsWith = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type AuditFilters = Omit<AuditQuery, 'limit' | 'offset'>;

function conditions(userId: string, q: AuditFilters): SQL | undefined {
  return and(
    eq(auditEntries.userId, userId),
    q.start_date ? gte(auditEntries.createdAt, new Date(q.start_date)) : undefined,
    q.end_date ? lte(auditEntries.createdAt, new Date(q.end_date)) : undefined,
    q.kind.length > 0 ? inArray(auditEntries.kind, q.kind) : undefined,
    q.event_type.length > 0 ? inArray(auditEntries.eventType, q.event_type) : undefined,
    q.status.length > 0 ? inArray(auditEntries.status, q.status) : undefined,
    q.ticket_id ? like(auditEntries.ticketId, startsWith(q.ticket_id)) : undefined,
    q.distribution_id ? like(auditEntries.distributionId, startsWith(q.distribution_id)) : undefined,
    q.ip_address ? like(auditEntries.ipAddress, startsWith(q.ip_address)) : undefined,
  );
}

type AuditRow = typeof auditEntries.$inferSelect;
type NameKind = 'ticket' | 'link' | 'user' | 'api-key' | 'webhook' | 'passkey';

/** What the subject of an entry is, by its event type (the others have none). */
const SUBJECT_KIND: Partial<Record<AuditEventType, NameKind>> = {
  PASSKEY_ADDED: 'passkey',
  PASSKEY_REMOVED: 'passkey',
  API_KEY_CREATED: 'api-key',
  API_KEY_REVOKED: 'api-key',
  WEBHOOK_ADDED: 'webhook',
  WEBHOOK_CHANGED: 'webhook',
  WEBHOOK_DISABLED: 'webhook',
  WEBHOOK_ENABLED: 'webhook',
  WEBHOOK_DELETED: 'webhook',
};

/** The names of a page of entries, looked up in one read: `kind|id` to name and detail. */
async function namesOf(
  db: Executor,
  rows: readonly AuditRow[],
): Promise<Map<string, { name: string | null; detail: string | null }>> {
  const wanted: Record<NameKind, Set<string>> = {
    ticket: new Set(),
    link: new Set(),
    user: new Set(),
    'api-key': new Set(),
    webhook: new Set(),
    passkey: new Set(),
  };
  for (const row of rows) {
    if (row.ticketId) wanted.ticket.add(row.ticketId);
    if (row.distributionId) wanted.link.add(row.distributionId);
    if (row.actorId) wanted.user.add(row.actorId);
    const subject = SUBJECT_KIND[row.eventType as AuditEventType];
    if (subject && row.subjectId) wanted[subject].add(row.subjectId);
  }
  const asked = Object.entries(wanted).filter(([, ids]) => ids.size > 0);
  if (asked.length === 0) return new Map();
  const found = await db
    .select()
    .from(auditNames)
    .where(or(...asked.map(([kind, ids]) => and(eq(auditNames.kind, kind), inArray(auditNames.id, [...ids])))));
  return new Map(found.map((n) => [`${n.kind}|${n.id}`, { name: n.name, detail: n.detail }]));
}

function toAuditEntry(row: AuditRow, names: Map<string, { name: string | null; detail: string | null }>): AuditEntry {
  const eventType = row.eventType as AuditEventType;
  const named = (kind: NameKind, id: string | null) => (id ? names.get(`${kind}|${id}`) : undefined);
  const ticket = named('ticket', row.ticketId);
  const subjectKind = SUBJECT_KIND[eventType];
  const apiKey = row.eventData.api_key;
  const entryNames: AuditNames = {
    ticket: ticket?.name ?? null,
    seat: ticket?.detail ?? null,
    link: named('link', row.distributionId)?.name ?? null,
    by: named('user', row.actorId)?.name ?? null,
    api_key: typeof apiKey === 'string' ? apiKey : null,
    subject: subjectKind ? (named(subjectKind, row.subjectId)?.name ?? null) : null,
  };
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    kind: row.kind as AuditKind,
    event_type: eventType,
    event_data: {
      ...row.eventData,
      status: row.status as AuditStatus,
      ticket_id: row.ticketId,
      distribution_id: row.distributionId,
      // The claims (or first opens) of an hour: how many, and the last (the first is the entry's time).
      ...(row.lastAt
        ? eventType === 'LINK_OPENED'
          ? { opens: row.count, last_open_at: row.lastAt.toISOString() }
          : { claims: row.count, last_claim_at: row.lastAt.toISOString() }
        : {}),
      ...(row.actorId ? { by_user_id: row.actorId } : {}),
    },
    metadata: { ip_address: row.ipAddress, bulk_action: row.bulkAction },
    names: entryNames,
  };
}

/** Entries as the API gives them: with the names a person reads them by. */
async function toAuditEntries(db: Executor, rows: readonly AuditRow[]): Promise<AuditEntry[]> {
  const names = await namesOf(db, rows);
  return rows.map((row) => toAuditEntry(row, names));
}

/** A page of a user's audit log, newest first (of one instant, the last made first; docs/reference.md "API calls"). */
export async function listAudits(db: Executor, userId: string, q: AuditQuery): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(auditEntries)
    .where(conditions(userId, q))
    .orderBy(desc(auditEntries.createdAt), desc(auditEntries.seq))
    .limit(q.limit)
    .offset(q.offset);
  return toAuditEntries(db, rows);
}

/** Every entry of the filtered view, newest first, a batch at a time (keyset: the CSV export of any size). */
export async function* auditBatches(
  db: Executor,
  userId: string,
  q: AuditFilters,
  batchSize: number,
  maxRows: number,
): AsyncGenerator<AuditEntry[]> {
  let after: { createdAt: Date; seq: number } | null = null;
  let sent = 0;
  while (sent < maxRows) {
    const cursor: { createdAt: Date; seq: number } | null = after;
    const rows: AuditRow[] = await db
      .select()
      .from(auditEntries)
      .where(
        and(
          conditions(userId, q),
          cursor
            ? or(
                lt(auditEntries.createdAt, cursor.createdAt),
                and(eq(auditEntries.createdAt, cursor.createdAt), lt(auditEntries.seq, cursor.seq)),
              )
            : undefined,
        ),
      )
      .orderBy(desc(auditEntries.createdAt), desc(auditEntries.seq))
      .limit(Math.min(batchSize, maxRows - sent));
    if (rows.length === 0) return;
    sent += rows.length;
    const last: AuditRow = rows[rows.length - 1]!;
    after = { createdAt: last.createdAt, seq: last.seq };
    yield toAuditEntries(db, rows);
    if (rows.length < batchSize) return;
  }
}
