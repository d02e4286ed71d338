import type { ReactNode } from 'react';
import { AUDIT_EVENT_TYPES, type AuditEntry } from '@seatlink/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { formatDateTime } from '../../../lib/format';

/** Labels of the event data fields an entry may carry beyond status, ticket and distribution. */
const FIELD_LABELS: Record<string, string> = {
  code: 'Code',
  reason: 'Reason',
  expires_at: 'Link expiry',
  max_clicks: 'Click limit',
  cost: 'Cost (credits)',
  label: 'Label',
  changes: 'Changes',
};

/** A Link Updated entry's changes names its settings as the API does (expiry_date for the expiry). */
const CHANGED_KEY: Record<string, string> = { expiry_date: 'expires_at', max_clicks: 'max_clicks', label: 'label' };

function show(key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') {
    if (key === 'expires_at') return 'Never';
    if (key === 'max_clicks') return 'Unlimited';
    return '—';
  }
  if (key === 'changes' && typeof value === 'object') {
    // 'Click limit: 5 → 12; Label: — → for Sam'
    const order = Object.keys(CHANGED_KEY);
    const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
    // In the settings' own order (the stored object's keys come back in the database's order).
    return Object.entries(value as Record<string, { from?: unknown; to?: unknown }>)
      .sort(([a], [b]) => rank(a) - rank(b))
      .map(([name, change]) => {
        const field = CHANGED_KEY[name] ?? name;
        return `${FIELD_LABELS[field] ?? name}: ${show(field, change?.from)} → ${show(field, change?.to)}`;
      })
      .join('; ');
  }
  if (key === 'expires_at' && typeof value === 'string') return formatDateTime(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8.5rem_minmax(0,1fr)] gap-x-3 py-1.5">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 font-medium break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** 'View Details' of an audit entry (SPEC.md §2, built working): every field it holds. */
export function AuditDetailsDialog({ entry, onClose }: { entry: AuditEntry; onClose: () => void }) {
  const { status, ticket_id: ticketId, distribution_id: distributionId, ...rest } = entry.event_data;
  const extra = Object.entries(rest);
  return (
    <Modal
      title="Audit entry details"
      description={`${AUDIT_EVENT_TYPES[entry.event_type]} on ${formatDateTime(entry.created_at)}`}
      onClose={onClose}
      size="lg"
      testId="audit-details"
    >
      <dl className="divide-y divide-slate-100 text-sm">
        <Row label="Event Time">{new Date(entry.created_at).toISOString()}</Row>
        <Row label="Status">
          <Badge tone={status === 'SUCCESS' ? 'green' : 'red'}>{status}</Badge>
        </Row>
        <Row label="Event Type">
          {AUDIT_EVENT_TYPES[entry.event_type]}{' '}
          <span className="font-mono text-xs text-slate-600">({entry.event_type})</span>
        </Row>
        <Row label="Ticket ID">
          <span className="font-mono text-xs">{ticketId ?? '—'}</span>
        </Row>
        <Row label="Distribution ID">
          <span className="font-mono text-xs">{distributionId ?? '—'}</span>
        </Row>
        <Row label="IP Address">{entry.metadata.ip_address ?? '—'}</Row>
        <Row label="Bulk Action">{entry.metadata.bulk_action ? 'Yes' : 'No'}</Row>
        {extra.map(([key, value]) => (
          <Row key={key} label={FIELD_LABELS[key] ?? key}>
            <span data-testid={`detail-${key}`}>{show(key, value)}</span>
          </Row>
        ))}
        <Row label="Entry ID">
          <span className="font-mono text-xs">{entry.id}</span>
        </Row>
      </dl>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer font-medium text-indigo-700">Raw event data</summary>
        <pre
          className="mt-2 max-h-60 overflow-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100"
          data-testid="audit-raw"
        >
          {JSON.stringify({ event_data: entry.event_data, metadata: entry.metadata }, null, 2)}
        </pre>
      </details>
      <div className="mt-4 flex justify-end">
        <Button onClick={onClose}>Close</Button>
      </div>
    </Modal>
  );
}
