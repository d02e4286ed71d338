import type { ReactNode } from 'react';
import { cx } from '../../../components/ui/cx';
import { ChevronIcon, FilterIcon } from '../../../components/ui/icons';
import type { TicketFilters } from '../ticket-filters';

export const FILTERS_PANEL_ID = 'ticket-filters';

/** How many of the four filters are set (shown on the phone's Filters button while the panel is closed). */
function activeFilters(filters: TicketFilters): number {
  return [
    filters.search.trim() !== '',
    filters.selectedAccount !== '',
    filters.status !== 'all',
    filters.event !== '',
  ].filter(Boolean).length;
}

/** The filters' box: always shown on a wide screen; on a phone only while its Filters button has it open. */
export function TicketFiltersPanel({
  hidden,
  className,
  children,
}: {
  hidden: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      id={FILTERS_PANEL_ID}
      aria-label="Filters"
      hidden={hidden}
      className={cx('rounded-xl border border-slate-200 bg-white p-4 shadow-sm', className)}
    >
      {children}
    </section>
  );
}

/** The phone's one control for the filters: opens and closes their box, and says how many are set. */
export function FiltersToggle({
  open,
  onToggle,
  filters,
}: {
  open: boolean;
  onToggle: () => void;
  filters: TicketFilters;
}) {
  const active = activeFilters(filters);
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-controls={FILTERS_PANEL_ID}
      onClick={onToggle}
      className={cx(
        'inline-flex items-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-semibold shadow-sm ring-1 ring-inset',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        active > 0
          ? 'bg-indigo-50 text-indigo-700 ring-indigo-200'
          : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
      )}
      data-testid="filters-toggle"
    >
      <FilterIcon className="h-4 w-4" />
      Filters
      {active > 0 ? (
        <>
          <span
            className="rounded-full bg-indigo-600 px-1.5 text-xs text-white"
            aria-hidden="true"
            data-testid="filters-active"
          >
            {active}
          </span>
          <span className="sr-only"> ({active} set)</span>
        </>
      ) : null}
      <ChevronIcon className={cx('h-4 w-4 transition-transform', open && 'rotate-180')} />
    </button>
  );
}
