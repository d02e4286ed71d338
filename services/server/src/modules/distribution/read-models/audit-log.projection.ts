import { asSubscription, type Subscription } from '../../../infra/subscriptions/subscription.js';
import type { RecordedEvent } from '../../../infra/event-store/event-store.port.js';
import type { DistributionEvent } from '../distribution.events.js';
import { auditEntries } from '../distribution.schema.js';

type AuditRow = typeof auditEntries.$inferInsert;

/** The audit row of an event, or null for events the log does not show. */
export function auditRowOf(recorded: RecordedEvent): AuditRow | null {
  const event = { type: recorded.type, data: recorded.data } as DistributionEvent;
  const base = {
    id: recorded.id,
    createdAt: recorded.createdAt,
    ipAddress: typeof recorded.metadata.ip === 'string' ? recorded.metadata.ip : null,
    bulkAction: recorded.metadata.bulk === true,
  };
  switch (event.type) {
    case 'TicketDistributed': {
      const { data } = event;
      return {
        ...base,
        userId: data.userId,
        eventType: 'DISTRIBUTE',
        status: 'SUCCESS',
        ticketId: data.ticketId,
        distributionId: data.distributionId,
        eventData: {
          status: 'SUCCESS',
          ticket_id: data.ticketId,
          distribution_id: data.distributionId,
          expires_at: data.expiresAt,
          max_clicks: data.maxClicks,
          cost: data.cost,
        },
      };
    }
    case 'DistributionRefused':
    case 'DistributionVoided':
    case 'RecallRefused': {
      const { data } = event;
      return {
        ...base,
        userId: data.userId,
        eventType: event.type === 'RecallRefused' ? 'TICKET_RECALLED' : 'DISTRIBUTE',
        status: 'FAILED',
        ticketId: data.ticketId,
        distributionId: data.distributionId,
        eventData: {
          status: 'FAILED',
          ticket_id: data.ticketId,
          distribution_id: data.distributionId,
          code: data.code,
          reason: data.reason,
        },
      };
    }
    case 'TicketRecalled': {
      const { data } = event;
      return {
        ...base,
        userId: data.userId,
        eventType: 'TICKET_RECALLED',
        status: 'SUCCESS',
        ticketId: data.ticketId,
        distributionId: data.distributionId,
        eventData: { status: 'SUCCESS', ticket_id: data.ticketId, distribution_id: data.distributionId },
      };
    }
    default:
      return null;
  }
}

/** `audit_entries`: every distribution and recall attempt, successful or refused, as SPEC.md §3 "Audit entry". */
export const auditLogProjection: Subscription = asSubscription({
  name: 'audit-log',
  kind: 'projection',
  tables: ['audit_entries'],
  handles: ['TicketDistributed', 'DistributionRefused', 'DistributionVoided', 'TicketRecalled', 'RecallRefused'],
  async apply(events, { tx, push }) {
    const rows = events.map(auditRowOf).filter((row): row is AuditRow => row !== null);
    for (let i = 0; i < rows.length; i += 500) {
      await tx
        .insert(auditEntries)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing();
    }
    // Once the entries are readable: an open audit log reloads (one push per user of the batch).
    for (const userId of new Set(rows.map((row) => row.userId))) {
      push({ to: 'admins', event: 'audit.updated', payload: { user_id: userId } });
    }
  },
});
