import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import type { AuditEntry } from '@seatlink/contracts';
import { Button } from '../../components/ui/button';
import { DownloadIcon } from '../../components/ui/icons';
import { useNow } from '../../lib/use-now';
import { useUserAudits } from './admin-audit.queries';
import { useAdminAuditStore } from './admin-audit.store';
import {
  auditCsvUrl,
  filterChips,
  KIND_OPTIONS,
  pagingState,
  presetDays,
  QUICK_RANGES,
  showingLabel,
} from './audit-filters';
import { AuditDetailsDialog } from './components/audit-details-dialog';
import { AuditTable } from './components/audit-table';
import { FilterChips } from './components/filter-chips';
import { ReplayPanel } from './components/replay-panel';
import { TogglePill } from './components/toggle-pill';

/** What the users table passes along when it opens a user's audit log. */
interface AuditLocationState {
  email?: unknown;
}

/**
 * /admin/users/{userId}/audits (docs/reference.md "User Audit Log screen"): everything that moved the user's money,
 * access or links, newest first, 50 a page, each row in words (titles and seats, labels, e-mails, names; the ids in
 * View Details), with a filter in each of the first six column headers, the kinds (Money, Access, Links), the chips of
 * the filters set, quick date ranges, a CSV export of the filtered view, 'View Details' per entry, and a replay of the
 * user's state at a moment. The filter set is kept in local storage; new entries of the user (`audit.updated`) read the
 * page again (app/realtime-bridge.tsx). The user's e-mail shows under the title when the users list opened this page
 * (it hands the address over in the navigation state, which survives a reload).
 */
export function UserAuditLogPage() {
  const { userId = '' } = useParams();
  const location = useLocation();
  const email =
    typeof (location.state as AuditLocationState | null)?.email === 'string'
      ? ((location.state as AuditLocationState).email as string)
      : null;
  const filters = useAdminAuditStore((s) => s.filters);
  const openFor = useAdminAuditStore((s) => s.userId);
  const { open, setFilters, applyRange, setDate, removeChip, clearAll, page } = useAdminAuditStore.getState();
  // Read once the filters of this user's log are in place (restored from local storage as it opens).
  const { audits, loading, loaded, error } = useUserAudits(userId, filters, openFor === userId);
  const [details, setDetails] = useState<AuditEntry | null>(null);

  useEffect(() => {
    open(userId);
  }, [userId, open]);

  const now = useNow(30_000);

  const chips = filterChips(filters, now);
  const rangeDays = presetDays(filters.range, now);
  const { canPrevious, canNext } = pagingState(filters, audits.length);
  const shownRows = error ? [] : audits;

  return (
    <>
      <Link
        to="/admin/users"
        className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-indigo-600 hover:text-indigo-500"
      >
        <span aria-hidden="true">←</span> Back
      </Link>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4" data-user-id={userId}>
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">User Audit Log</h1>
          {email ? (
            <p className="mt-1 truncate text-sm text-slate-600" data-testid="audit-user-email">
              {email}
            </p>
          ) : null}
        </div>
        <a
          href={auditCsvUrl(userId, filters, now)}
          // A rolling range (Last 7 days) ends at the moment of the click, not at the last render.
          onClick={(event) => {
            event.currentTarget.href = auditCsvUrl(userId, filters, Date.now());
          }}
          download
          className="inline-flex items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          data-testid="export-csv"
        >
          <DownloadIcon className="h-4 w-4" />
          Export CSV
        </a>
      </div>

      <div className="mb-3 flex flex-wrap items-center gap-2" role="group" aria-label="Quick date ranges">
        {QUICK_RANGES.map((range) => (
          <TogglePill key={range.id} pressed={filters.range === range.id} onClick={() => applyRange(range.id)}>
            {range.label}
          </TogglePill>
        ))}
        {rangeDays ? (
          // 'Last month' is the previous calendar month: the days it took are said, so an empty list explains itself.
          <span className="text-sm text-slate-600 tabular-nums" data-testid="quick-range-days">
            {rangeDays}
          </span>
        ) : null}
      </div>
      <div className="mb-3 flex flex-wrap items-center gap-2" role="group" aria-label="Kinds">
        <span className="text-sm text-slate-600">Show:</span>
        {KIND_OPTIONS.map((kind) => (
          <TogglePill
            key={kind.value}
            pressed={filters.kinds.includes(kind.value)}
            onClick={() =>
              setFilters({
                kinds: KIND_OPTIONS.map((k) => k.value).filter((k) =>
                  k === kind.value ? !filters.kinds.includes(k) : filters.kinds.includes(k),
                ),
              })
            }
          >
            {kind.label}
          </TogglePill>
        ))}
      </div>
      <div className="mb-4">
        <FilterChips chips={chips} onRemove={removeChip} onClearAll={clearAll} />
      </div>

      <AuditTable
        audits={shownRows}
        filters={filters}
        loading={loading}
        loaded={loaded}
        error={error}
        filtered={chips.length > 0}
        onFilters={setFilters}
        onDate={setDate}
        onDetails={setDetails}
      />

      <nav
        aria-label="Pagination"
        className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600"
      >
        <p data-testid="audits-showing" aria-live="polite">
          {loaded && !error ? showingLabel(filters.offset, audits.length) : '\u00a0'}
        </p>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" disabled={!canPrevious || loading} onClick={() => page('previous')}>
            Previous
          </Button>
          <Button variant="secondary" size="sm" disabled={!canNext || loading || !!error} onClick={() => page('next')}>
            Next
          </Button>
        </div>
      </nav>

      <ReplayPanel userId={userId} />

      {details ? <AuditDetailsDialog entry={details} onClose={() => setDetails(null)} /> : null}
    </>
  );
}
