import { SelectField } from '../../../components/ui/select';
import { cx } from '../../../components/ui/cx';
import { SortIcon } from '../../../components/ui/icons';
import { SORT_OPTIONS, type SortKey, type TicketSort } from '../ticket-filters';

/**
 * The overview's sort where the list's column headers are not shown (the grid, and so every phone): a 'Sort by' select
 * (the list's order, Date, Event, Account or Status; docs/reference.md "Tickets Overview screen") and a Descending
 * toggle beside it. The same sort as the headers': a sort chosen here is the one the list shows, and the other way.
 */
export function TicketSortControl({
  sort,
  onChange,
  wide = false,
  className,
}: {
  sort: TicketSort | null;
  onChange: (sort: TicketSort | null) => void;
  /** The select takes the line's width (a phone's line of its own). */
  wide?: boolean;
  className?: string;
}) {
  const descending = sort?.direction === 'desc';
  return (
    <div className={cx('flex items-center gap-1.5', className)} data-testid="sort-control">
      <SelectField
        label="Sort by"
        hideLabel
        containerClassName={wide ? 'min-w-0 flex-1' : undefined}
        value={sort?.key ?? ''}
        onChange={(event) => {
          const key = event.target.value as SortKey | '';
          onChange(key === '' ? null : { key, direction: sort?.direction ?? 'asc' });
        }}
        className="py-1.5"
        data-testid="sort-by"
      >
        <option value="">Sort: list order</option>
        {SORT_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            Sort: {option.label}
          </option>
        ))}
      </SelectField>
      <button
        type="button"
        aria-pressed={descending}
        aria-label="Descending"
        title={descending ? 'Descending' : 'Ascending'}
        disabled={!sort}
        onClick={() => sort && onChange({ key: sort.key, direction: descending ? 'asc' : 'desc' })}
        className={cx(
          'rounded-lg p-2 shadow-sm ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
          sort
            ? 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
            : 'cursor-not-allowed bg-slate-100 text-slate-400 ring-slate-200',
        )}
        data-testid="sort-direction"
      >
        <SortIcon sortOrder={sort ? sort.direction : null} className="h-4 w-4" />
      </button>
    </div>
  );
}
