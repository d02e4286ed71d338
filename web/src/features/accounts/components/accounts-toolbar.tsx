import { cx } from '../../../components/ui/cx';
import { SortIcon } from '../../../components/ui/icons';
import { SearchField } from '../../../components/ui/search-field';
import { SelectField } from '../../../components/ui/select';
import {
  ACCOUNT_FILTER_OPTIONS,
  ACCOUNT_SORT_OPTIONS,
  type AccountFilter,
  type AccountSort,
  type AccountSortKey,
} from '../account-rules';

export interface AccountsToolbarProps {
  search: string;
  filter: AccountFilter;
  sort: AccountSort;
  onSearch: (search: string) => void;
  onFilter: (filter: AccountFilter) => void;
  onSort: (key: AccountSortKey) => void;
}

/**
 * Search, the distribution filter and the Name / Tickets / Distribution sort buttons
 * (docs/reference.md "Accounts screens").
 */
export function AccountsToolbar({ search, filter, sort, onSearch, onFilter, onSort }: AccountsToolbarProps) {
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
      <SearchField
        id="account-search"
        label="Search accounts"
        containerClassName="flex-1"
        placeholder="Search name or email..."
        value={search}
        onChange={(event) => onSearch(event.target.value)}
      />
      <div className="flex flex-wrap items-center gap-3">
        <SelectField
          label="Filter"
          hideLabel
          containerClassName="min-w-48 flex-1 sm:flex-none"
          value={filter}
          onChange={(event) => onFilter(event.target.value as AccountFilter)}
        >
          {ACCOUNT_FILTER_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </SelectField>
        <div role="group" aria-label="Sort by" className="flex items-center gap-1">
          <span className="mr-1 text-sm text-slate-600" aria-hidden="true">
            Sort:
          </span>
          {ACCOUNT_SORT_OPTIONS.map(({ key, label }) => {
            const active = sort.key === key;
            return (
              <button
                key={key}
                type="button"
                aria-pressed={active}
                onClick={() => onSort(key)}
                title={active ? (sort.direction === 'asc' ? 'Ascending' : 'Descending') : undefined}
                className={cx(
                  'inline-flex items-center gap-1 rounded-lg px-2.5 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600',
                  active
                    ? 'bg-indigo-50 text-indigo-700 ring-1 ring-indigo-200'
                    : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                )}
                data-testid={`account-sort-${key}`}
              >
                {label}
                {active ? (
                  <>
                    <SortIcon sortOrder={sort.direction} className="h-4 w-4" />
                    <span className="sr-only">{sort.direction === 'asc' ? ', ascending' : ', descending'}</span>
                  </>
                ) : null}
              </button>
            );
          })}
        </div>
      </div>
    </div>
  );
}
