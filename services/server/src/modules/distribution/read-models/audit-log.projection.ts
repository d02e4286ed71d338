import type { AuditEventType, AuditStatus } from '@seatlink/contracts';
import { asSubscription, type Subscription } from '../../../infra/subscriptions/subscription.js';
import type { RecordedEvent } from '../../../infra/event-store/event-store.port.js';
import type { DistributionEvent } from '../distribution.events.js';
import { auditEntries } from '../distribution.schema.js';

type AuditRow = typeof auditEntries.$inferInsert;

/** The settings of a link by the names the API gives them. */
const SETTING_NAMES = { expiresAt: 'expiry_date', maxClicks: 'max_clicks', label: 'label', pinHash: 'pin' } as const;

/** The action a refusal is an entry of. */
const REFUSED_ACTION = {
  DistributionRefused: 'DISTRIBUTE',
  DistributionVoided: 'DISTRIBUTE',
  RecallRefused: 'TICKET_RECALLED',
  LinkUpdateRefused: 'LINK_UPDATED',
} as const;

/** The audit row of an event, or null for events the log does not show. */
export function auditRowOf(recorded: RecordedEvent): AuditRow | null {
  const event = { type: recorded.type, data: recorded.data } as DistributionEvent;
  /** One entry: who, what, on which ticket and link, and what else it says (`details`). */
  const entry = (
    eventType: AuditEventType,
    status: AuditStatus,
    data: { userId: string; ticketId: string | null; distributionId: string },
    details: Record<string, unknown> = {},
  ): AuditRow => ({
    id: recorded.id,
    createdAt: recorded.createdAt,
    ipAddress: typeof recorded.metadata.ip === 'string' ? recorded.metadata.ip : null,
    bulkAction: recorded.metadata.bulk === true,
    userId: data.userId,
    eventType,
    status,
    ticketId: data.ticketId,
    distributionId: data.distributionId,
    eventData: {
      status,
      ticket_id: data.ticketId,
      distribution_id: data.distributionId,
      ...details,
      // Made with an API key: its name (the key itself is nowhere).
      ...(typeof recorded.metadata.apiKey === 'string' ? { api_key: recorded.metadata.apiKey } : {}),
    },
  });
  switch (event.type) {
    case 'TicketDistributed': {
      const { data } = event;
      return entry('DISTRIBUTE', 'SUCCESS', data, {
        expires_at: data.expiresAt,
        max_clicks: data.maxClicks,
        cost: data.cost,
        ...(data.label ? { label: data.label } : {}),
      });
    }
    case 'LinkUpdated': {
      const { data } = event;
      // What changed, from what to what, in the API's own words.
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const [key, from] of Object.entries(data.previous)) {
        const name = key as keyof typeof SETTING_NAMES;
        const to = data.settings[name];
        // A PIN is said as none, set or new (one replaced by another), never its hash.
        changes[SETTING_NAMES[name]] =
          name === 'pinHash' ? { from: from ? 'set' : 'none', to: to ? (from ? 'new' : 'set') : 'none' } : { from, to };
      }
      return entry('LINK_UPDATED', 'SUCCESS', data, {
        changes,
        ...(data.settings.label ? { label: data.settings.label } : {}),
      });
    }
    case 'LinkPinLocked':
      return entry('LINK_UPDATED', 'SUCCESS', event.data, {
        changes: { pin: { from: 'set', to: 'locked' } },
        reason: `Locked after ${event.data.failures} wrong PINs`,
      });
    case 'DistributionRefused':
    case 'DistributionVoided':
    case 'RecallRefused':
    case 'LinkUpdateRefused':
      return entry(REFUSED_ACTION[event.type], 'FAILED', event.data, {
        code: event.data.code,
        reason: event.data.reason,
      });
    case 'TicketRecalled':
      return entry('TICKET_RECALLED', 'SUCCESS', event.data);
    default:
      return null;
  }
}

/**
 * `audit_entries`: every distribution, recall and edit attempt, successful or refused, as SPEC.md §3 "Audit entry".
 */
export const auditLogProjection: Subscription = asSubscription({
  name: 'audit-log',
  kind: 'projection',
  tables: ['audit_entries'],
  handles: [
    'TicketDistributed',
    'DistributionRefused',
    'DistributionVoided',
    'TicketRecalled',
    'RecallRefused',
    'LinkUpdated',
    'LinkUpdateRefused',
    'LinkPinLocked',
  ],
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
