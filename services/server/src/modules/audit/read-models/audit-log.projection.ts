import { sql } from 'drizzle-orm';
import { asSubscription, type Subscription } from '../../../infra/subscriptions/subscription.js';
import { auditEntries, auditNames } from '../audit.schema.js';
import {
  AUDIT_NAME_EVENTS,
  AUDIT_ROW_EVENTS,
  type AuditNameRow,
  type AuditRow,
  auditNamesOf,
  auditRowOf,
  claimRowsOf,
} from './audit-rows.js';

/** Every event type the audit log reads: its entries' and the names they are read by. */
export const AUDIT_LOG_EVENTS: readonly string[] = [...AUDIT_ROW_EVENTS, ...AUDIT_NAME_EVENTS];

const PART = 500;

/**
 * `audit_entries` and `audit_names`: everything that moved money, access or a link of a user, successful or refused
 * (docs/reference.md "Audit entry"), and the names its rows are read by. A link's claims are one entry per hour, with
 * their count, so a storm of clicks stays readable; a page of clicks alone is summed inside the database where the
 * events are (`seatlink_project_audit_claims`, audit.routines.ts), never read into the process, and here otherwise.
 */
export const auditLogProjection: Subscription = asSubscription({
  name: 'audit-log',
  kind: 'projection',
  tables: ['audit_entries', 'audit_names'],
  handles: AUDIT_LOG_EVENTS,
  inDatabase: 'seatlink_project_audit_claims',
  async apply(events, { tx, push }) {
    const rows = events.map(auditRowOf).filter((row): row is AuditRow => row !== null);
    // The last name each thing was given in the batch (set-based: one row per thing).
    const names = new Map<string, AuditNameRow>();
    for (const name of events.flatMap(auditNamesOf)) names.set(`${name.kind}|${name.id}`, name);
    const named = [...names.values()];
    for (let i = 0; i < named.length; i += PART) {
      await tx
        .insert(auditNames)
        .values(named.slice(i, i + PART))
        .onConflictDoUpdate({
          target: [auditNames.kind, auditNames.id],
          set: { name: sql`excluded.name`, detail: sql`excluded.detail` },
        });
    }
    for (let i = 0; i < rows.length; i += PART) {
      await tx
        .insert(auditEntries)
        .values(rows.slice(i, i + PART))
        .onConflictDoNothing();
    }
    const claims = claimRowsOf(events);
    for (let i = 0; i < claims.length; i += PART) {
      await tx
        .insert(auditEntries)
        .values(claims.slice(i, i + PART))
        .onConflictDoUpdate({
          target: auditEntries.id,
          set: {
            count: sql`${auditEntries.count} + excluded.count`,
            createdAt: sql`least(${auditEntries.createdAt}, excluded.created_at)`,
            lastAt: sql`greatest(${auditEntries.lastAt}, excluded.last_at)`,
          },
        });
    }
    // Once the entries are readable: an open audit log reloads (one push per user of the batch). Claims are not
    // pushed: a storm of them would reload the page without end; they show at its next read.
    for (const userId of new Set(rows.map((row) => row.userId))) {
      push({ to: 'admins', event: 'audit.updated', payload: { user_id: userId } });
    }
  },
});
