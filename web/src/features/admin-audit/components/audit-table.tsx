import type { ReactNode } from 'react';
import { AUDIT_EVENT_TYPES, AUDIT_KINDS, AUDIT_STATUSES, type AuditEntry, type AuditKind } from '@seatlink/contracts';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { FilterIcon } from '../../../components/ui/icons';
import { Popover } from '../../../components/ui/popover';
import { formatDateTime } from '../../../lib/format';
import { EVENT_TYPE_OPTIONS, type AuditFilters } from '../audit-filters';
import { auditWords } from '../audit-words';
import { CheckboxFilter, DateRangeFilter, TextFilter } from './audit-filter-panels';

const STATUS_OPTIONS = AUDIT_STATUSES.map((value) => ({ value, label: value }));

export interface AuditTableProps {
  audits: readonly AuditEntry[];
  filters: AuditFilters;
  loading: boolean;
  loaded: boolean;
  error: string | null;
  filtered: boolean;
  onFilters: (patch: Partial<AuditFilters>) => void;
  onDate: (field: 'startDate' | 'endDate', value: string) => void;
  onDetails: (entry: AuditEntry) => void;
}

function Header({
  label,
  filter,
  active,
  width,
}: {
  label: string;
  /** The column's filter panel (the first six columns have one). */
  filter?: ReactNode;
  active?: boolean;
  width: string;
}) {
  return (
    <th
      scope="col"
      className={`px-3 py-3 text-left align-middle text-xs font-semibold text-slate-600 uppercase ${width}`}
    >
      <span className="flex items-center gap-1.5">
        <span className="min-w-0">{label}</span>
        {filter ? (
          <Popover
            label={`Filter ${label}`}
            trigger={<FilterIcon className="h-3.5 w-3.5" />}
            active={active}
            testId={`filter-${label.toLowerCase().replace(/\s+/g, '-')}`}
          >
            {filter}
          </Popover>
        ) : null}
      </span>
    </th>
  );
}

/** A header filtered by ticking values; its filter is active while any is ticked. */
function ChecklistHeader<T extends string>({
  label,
  width,
  ...checklist
}: {
  label: string;
  width: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: readonly T[];
  onChange: (value: T[]) => void;
}) {
  return (
    <Header
      label={label}
      width={width}
      active={checklist.value.length > 0}
      filter={<CheckboxFilter legend={label} {...checklist} />}
    />
  );
}

const KIND_TONES: Record<AuditKind, 'amber' | 'indigo' | 'blue'> = { money: 'amber', access: 'indigo', links: 'blue' };

/** A value the entry has no name for: its id, cut short (whole in View Details and the CSV). */
function ShortId({ id }: { id: string }) {
  return <span className="font-mono text-xs text-slate-600">{id.slice(0, 8)}…</span>;
}

/**
 * The Ticket ID column (docs/reference.md "User Audit Log screen") as a person reads it: the ticket's title and seat;
 * its id stays in View Details and the CSV (`data-ticket-id`).
 */
function TicketCell({ entry }: { entry: AuditEntry }) {
  const id = entry.event_data.ticket_id;
  const { ticket, seat } = entry.names;
  return (
    <td className="px-3 py-2.5" data-label="Ticket ID" data-testid="audit-ticket" data-ticket-id={id ?? undefined}>
      {!id ? (
        <span className="text-slate-500">—</span>
      ) : ticket ? (
        <>
          <span className="block font-medium break-words text-slate-800" data-testid="audit-ticket-title">
            {ticket}
          </span>
          {seat ? (
            <span className="block text-xs break-words text-slate-600" data-testid="audit-ticket-seat">
              {seat}
            </span>
          ) : null}
        </>
      ) : (
        <ShortId id={id} />
      )}
    </td>
  );
}

/**
 * The Distribution ID column (docs/reference.md "User Audit Log screen") as a person reads it: the link's label; its id
 * stays in View Details.
 */
function LinkCell({ entry }: { entry: AuditEntry }) {
  const id = entry.event_data.distribution_id;
  const label = entry.names.link;
  return (
    <td
      className="px-3 py-2.5"
      data-label="Distribution ID"
      data-testid="audit-distribution"
      data-distribution-id={id ?? undefined}
    >
      {!id ? (
        <span className="text-slate-500">—</span>
      ) : label ? (
        <span className="block break-words text-slate-800">“{label}”</span>
      ) : (
        <span className="text-slate-600 italic">No label</span>
      )}
    </td>
  );
}

/** What the entry says beyond its type ('50 → 75 · by admin@… · “Goodwill”'), under it. */
function Words({ entry }: { entry: AuditEntry }) {
  const words = auditWords(entry, { inTable: true });
  return words ? (
    <p className="mt-1 text-xs break-words text-slate-600" data-testid="audit-words">
      {words}
    </p>
  ) : null;
}

const COLUMN_COUNT = 7;

/** The columns filtered by a text (a part of an ID or address), in their order. */
const TEXT_COLUMNS = [
  { label: 'Ticket ID', field: 'ticketId', width: 'w-[9.5rem]', placeholder: 'e.g. 3f6c1a2e' },
  { label: 'Distribution ID', field: 'distributionId', width: 'w-[7.5rem]', placeholder: 'e.g. 9b2d4e10' },
  { label: 'IP Address', field: 'ipAddress', width: 'w-[7.5rem]', placeholder: 'e.g. 192.168.' },
] as const satisfies ReadonlyArray<{ label: string; field: keyof AuditFilters; width: string; placeholder: string }>;

/**
 * The audit table (docs/reference.md "User Audit Log screen"): Event Time, Status, Event Type, Ticket ID, Distribution
 * ID, IP Address and Details; each of the first six headers has its filter in a popover. The list's error, first load
 * and empty state show in its body, so the filters stay at hand. On a phone each entry is a card, under the headers as
 * a row of filter chips.
 */
export function AuditTable({
  audits,
  filters,
  loading,
  loaded,
  error,
  filtered,
  onFilters,
  onDate,
  onDetails,
}: AuditTableProps) {
  let body: ReactNode;
  if (error) {
    body = (
      <tr>
        <td colSpan={COLUMN_COUNT} className="px-4 py-6">
          <Alert tone="error" data-testid="audits-error">
            {error}
          </Alert>
        </td>
      </tr>
    );
  } else if (!loaded) {
    body = (
      <tr>
        <td colSpan={COLUMN_COUNT} className="px-4 py-10 text-center text-sm text-slate-600" role="status">
          Loading...
        </td>
      </tr>
    );
  } else if (audits.length === 0) {
    body = (
      <tr>
        <td colSpan={COLUMN_COUNT} className="px-4 py-12 text-center" data-testid="audits-empty">
          <p className="text-base font-semibold text-slate-900">No audit logs found</p>
          <p className="mt-1 text-sm text-slate-600">
            {filtered ? 'Try adjusting your filters' : 'This user has no recorded actions yet'}
          </p>
        </td>
      </tr>
    );
  } else {
    body = audits.map((entry) => (
      <tr key={entry.id} data-testid="audit-row" data-entry-id={entry.id} className="hover:bg-slate-50">
        <td className="px-3 py-2.5 whitespace-nowrap text-slate-700" data-label="Event Time" data-testid="audit-time">
          {formatDateTime(entry.created_at)}
        </td>
        <td className="px-3 py-2.5" data-label="Status" data-testid="audit-status">
          <Badge tone={entry.event_data.status === 'SUCCESS' ? 'green' : 'red'}>{entry.event_data.status}</Badge>
        </td>
        <td className="px-3 py-2.5" data-label="Event Type">
          <div className="flex flex-wrap items-center gap-1.5">
            <span className="whitespace-nowrap text-slate-800" data-testid="audit-type">
              {AUDIT_EVENT_TYPES[entry.event_type]}
            </span>
            <Badge tone={KIND_TONES[entry.kind]} testId="audit-kind">
              {AUDIT_KINDS[entry.kind]}
            </Badge>
            {entry.metadata.bulk_action ? (
              <Badge tone="blue" testId="bulk-badge">
                Bulk Action
              </Badge>
            ) : null}
          </div>
          <Words entry={entry} />
        </td>
        <TicketCell entry={entry} />
        <LinkCell entry={entry} />
        <td className="px-3 py-2.5 whitespace-nowrap text-slate-700" data-label="IP Address" data-testid="audit-ip">
          {entry.metadata.ip_address ?? '—'}
        </td>
        <td className="stack-full px-3 py-2.5 whitespace-nowrap">
          <Button size="sm" variant="secondary" onClick={() => onDetails(entry)}>
            View Details
          </Button>
        </td>
      </tr>
    ));
  }

  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table
        className="stack-table stack-table-filters w-full min-w-[59rem] table-fixed divide-y divide-slate-200 text-sm"
        aria-busy={loading}
        aria-label="Audit log"
        data-testid="audits-table"
      >
        <thead className="bg-slate-50">
          <tr>
            <Header
              label="Event Time"
              width="w-[9.5rem]"
              active={filters.range !== 'default'}
              filter={<DateRangeFilter startDate={filters.startDate} endDate={filters.endDate} onChange={onDate} />}
            />
            <ChecklistHeader
              label="Status"
              width="w-[6.25rem]"
              options={STATUS_OPTIONS}
              value={filters.status}
              onChange={(status) => onFilters({ status })}
            />
            <ChecklistHeader
              label="Event Type"
              width=""
              options={EVENT_TYPE_OPTIONS}
              value={filters.eventTypes}
              onChange={(eventTypes) => onFilters({ eventTypes })}
            />
            {TEXT_COLUMNS.map(({ label, field, width, placeholder }) => (
              <Header
                key={field}
                label={label}
                width={width}
                active={filters[field].trim() !== ''}
                filter={
                  <TextFilter
                    label={label}
                    value={filters[field]}
                    placeholder={placeholder}
                    onCommit={(value) => onFilters({ [field]: value })}
                  />
                }
              />
            ))}
            <Header label="Details" width="w-[8.5rem]" />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{body}</tbody>
      </table>
    </div>
  );
}
