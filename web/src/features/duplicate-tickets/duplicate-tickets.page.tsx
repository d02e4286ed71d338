import { useMemo } from 'react';
import type { DuplicateGroup, DuplicateTicketView } from '@seatlink/contracts';
import { LoadFailed, LoadingStatus } from '../../components/ui/load-states';
import { Badge } from '../../components/ui/badge';
import { EmptyState } from '../../components/ui/empty-state';
import { CopyIcon, TicketIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { StatCard } from '../../components/ui/stat-card';
import { countOf, formatDateTime } from '../../lib/format';
import { useDuplicateTickets } from './duplicate-tickets.queries';

function Field({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="truncate text-slate-800" title={value} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function TicketItem({ ticket, master }: { ticket: DuplicateTicketView; master: boolean }) {
  return (
    <li className="px-4 py-3" data-testid={master ? 'master-ticket' : 'duplicate-ticket'} data-ticket-id={ticket.id}>
      <div className="flex min-w-0 items-center gap-2">
        {master ? <Badge tone="indigo">Master</Badge> : <Badge tone="amber">Duplicate</Badge>}
        <p className="truncate text-sm font-medium text-slate-900" title={ticket.title}>
          {ticket.title}
        </p>
      </div>
      <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-2 xl:grid-cols-[1fr_1.6fr_1fr_1fr_1fr]">
        <Field label="Venue" value={ticket.venue_name || 'N/A'} />
        <Field label="Seat Info" value={ticket.seat_info || 'N/A'} />
        <Field label="Created" value={formatDateTime(ticket.created_at)} testId="ticket-created" />
        <Field label="Account" value={ticket.account?.email || '—'} testId="ticket-account-email" />
        <Field label="User" value={ticket.user?.email || '—'} testId="ticket-user-email" />
      </dl>
    </li>
  );
}

function GroupCard({ group, index }: { group: DuplicateGroup; index: number }) {
  const { master_ticket: master, duplicate_tickets: duplicates } = group;
  const headingId = `duplicate-group-${index}`;
  return (
    <section
      aria-labelledby={headingId}
      className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
      data-testid="duplicate-group"
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-100 bg-slate-50 px-4 py-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            {master.title}
          </h2>
          <p className="text-sm text-slate-600">
            {master.venue_name || 'N/A'}
            {master.seat_info ? ` · ${master.seat_info}` : ''}
          </p>
        </div>
        <p className="text-sm text-slate-600">1 master, {countOf(duplicates.length, 'duplicate')}</p>
      </header>
      <ul aria-label={`Master ticket and duplicates of ${master.title}`} className="divide-y divide-slate-100">
        <TicketItem ticket={master} master />
        {duplicates.map((ticket) => (
          <TicketItem key={ticket.id} ticket={ticket} master={false} />
        ))}
      </ul>
    </section>
  );
}

/**
 * /admin/duplicate-tickets: passes held by more than one ticket (docs/reference.md "Admin screens"), read again when
 * tickets change (app/realtime-bridge.tsx). The master is the ticket that claimed the pass first; the duplicates cannot
 * be distributed.
 */
export function DuplicateTicketsPage() {
  const { data, loading, error, retry } = useDuplicateTickets();

  const groups = useMemo(() => data?.duplicate_groups ?? [], [data]);
  const duplicateCount = useMemo(() => groups.reduce((n, g) => n + g.duplicate_tickets.length, 0), [groups]);

  let content;
  if (error && !data) {
    content = <LoadFailed message={error} onRetry={() => void retry()} testId="duplicates-error" />;
  } else if (!data) {
    content = <LoadingStatus busy={loading} />;
  } else if (groups.length === 0) {
    content = <EmptyState title="No duplicate tickets found" testId="duplicates-empty" />;
  } else {
    content = (
      <div className="space-y-4">
        {groups.map((group, index) => (
          <GroupCard key={group.master_ticket.id} group={group} index={index} />
        ))}
      </div>
    );
  }

  return (
    <>
      <PageHeader
        title="Duplicate Tickets"
        subtitle="The same pass held by more than one account. The master ticket can be distributed; its duplicates cannot."
      />
      <div className="mb-6 grid grid-cols-2 gap-4 xl:grid-cols-4">
        <StatCard
          label="Duplicate Groups"
          value={groups.length}
          valueTestId="duplicate-group-count"
          icon={<CopyIcon />}
        />
        <StatCard
          label="Duplicate Tickets"
          value={duplicateCount}
          valueTestId="duplicate-ticket-count"
          icon={<TicketIcon />}
        />
      </div>
      {content}
    </>
  );
}
