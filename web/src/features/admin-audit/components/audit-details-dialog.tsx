import type { ReactNode } from 'react';
import { AUDIT_EVENT_TYPES, AUDIT_KINDS, type AuditEntry } from '@seatlink/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { formatDateTime } from '../../../lib/format';
import { auditWords } from '../audit-words';

/** Labels of the event data fields an entry may carry beyond status, ticket and distribution. */
const FIELD_LABELS: Record<string, string> = {
  code: 'Code',
  reason: 'Reason',
  expires_at: 'Link expiry',
  max_clicks: 'Click limit',
  cost: 'Cost (credits)',
  label: 'Label',
  changes: 'Changes',
  claims: 'Claims',
  last_claim_at: 'Last claim',
  opens: 'Opened on (new devices)',
  last_open_at: 'Last open',
  hour: 'Hour',
  from: 'From (credits)',
  to: 'To (credits)',
  amount: 'Amount (credits)',
  requested: 'Asked (credits)',
  amount_pence: 'Amount (pence)',
  balance_after: 'Balance after',
  links: 'Links',
  distribution_ids: 'Distribution IDs',
  reference: 'Reference',
  payment_intent_id: 'Card payment',
  dispute_id: 'Dispute',
  device: 'Device',
  sessions: 'Sessions',
  recovery_codes: 'Recovery codes',
  passkey_id: 'Passkey ID',
  name: 'Name',
  key_id: 'API key ID',
  scopes: 'Scopes',
  prefix: 'Key starts',
  endpoint_id: 'Webhook ID',
  url: 'Address',
  events: 'Events',
  secret_rolled: 'New signing secret',
  secret_prefix: 'Secret starts',
  by: 'Disabled by',
  api_key: 'API key',
  api_key_id: 'API key ID',
  by_user_id: 'By (user ID)',
};

/** The fields that hold a moment. */
const MOMENTS = new Set(['expires_at', 'last_claim_at', 'last_open_at', 'hour']);
/** The fields that hold ids (shown as code). */
const IDS = new Set([
  'distribution_ids',
  'reference',
  'payment_intent_id',
  'dispute_id',
  'passkey_id',
  'key_id',
  'endpoint_id',
  'api_key_id',
  'by_user_id',
]);

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
  if (MOMENTS.has(key) && typeof value === 'string') return formatDateTime(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
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

/** A name a person reads, with the id it stands for under it (or the id alone when there is no name). */
function Named({ name, id, testId }: { name: string | null; id: string | null; testId: string }) {
  return (
    <span data-testid={testId}>
      {name ? <span className="block">{name}</span> : null}
      {id ? <span className="block font-mono text-xs font-normal text-slate-600">{id}</span> : null}
      {!name && !id ? '—' : null}
    </span>
  );
}

/**
 * 'View Details' of an audit entry (docs/reference.md "User Audit Log screen"): what it says in words, the names it is
 * read by with the ids they stand for, and every field it holds (the raw data too).
 */
export function AuditDetailsDialog({ entry, onClose }: { entry: AuditEntry; onClose: () => void }) {
  const { status, ticket_id: ticketId, distribution_id: distributionId, ...rest } = entry.event_data;
  const { names } = entry;
  // In the order the labels are listed (the stored object's keys come back in the database's order).
  const order = Object.keys(FIELD_LABELS);
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  const extra = Object.entries(rest)
    .filter(([key]) => !['api_key', 'api_key_id', 'by_user_id'].includes(key))
    .sort(([a], [b]) => rank(a) - rank(b));
  const words = auditWords(entry);
  const ticket = names.ticket ? [names.ticket, names.seat].filter(Boolean).join(' · ') : null;
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
          <span className="font-mono text-xs text-slate-600">({entry.event_type})</span> · {AUDIT_KINDS[entry.kind]}
        </Row>
        {words ? (
          <Row label="Summary">
            <span data-testid="detail-summary">{words}</span>
          </Row>
        ) : null}
        <Row label="Ticket">
          <Named name={ticket} id={ticketId} testId="detail-ticket" />
        </Row>
        <Row label="Link">
          <Named name={names.link ? `“${names.link}”` : null} id={distributionId} testId="detail-link" />
        </Row>
        {/* Who did it (an admin) and with which API key, when they were not the user alone. */}
        {(
          [
            ['By', names.by, 'by_user_id', 'detail-by'],
            ['API key', names.api_key, 'api_key_id', 'detail-api-key'],
          ] as const
        ).map(([label, name, idKey, testId]) => {
          const id = typeof entry.event_data[idKey] === 'string' ? (entry.event_data[idKey] as string) : null;
          return name || id ? (
            <Row key={label} label={label}>
              <Named name={name} id={id} testId={testId} />
            </Row>
          ) : null;
        })}
        {names.subject ? <Row label="Acts on">{names.subject}</Row> : null}
        <Row label="IP Address">{entry.metadata.ip_address ?? '—'}</Row>
        <Row label="Bulk Action">{entry.metadata.bulk_action ? 'Yes' : 'No'}</Row>
        {extra.map(([key, value]) => (
          <Row key={key} label={FIELD_LABELS[key] ?? key}>
            <span data-testid={`detail-${key}`} className={IDS.has(key) ? 'font-mono text-xs' : undefined}>
              {show(key, value)}
            </span>
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
          {JSON.stringify({ event_data: entry.event_data, metadata: entry.metadata, names: entry.names }, null, 2)}
        </pre>
      </details>
      <div className="mt-4 flex justify-end">
        <Button onClick={onClose}>Close</Button>
      </div>
    </Modal>
  );
}
