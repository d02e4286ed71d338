import { Button } from '../../../components/ui/button';
import { CloseIcon } from '../../../components/ui/icons';
import type { ChipKey, FilterChip } from '../audit-filters';

/**
 * The active-filter chip bar (docs/reference.md "User Audit Log screen"): one chip per filter set, each removable, and
 * 'Clear all filters'; 'No filters active' when there is none.
 */
export function FilterChips({
  chips,
  onRemove,
  onClearAll,
}: {
  chips: readonly FilterChip[];
  onRemove: (key: ChipKey) => void;
  onClearAll: () => void;
}) {
  return (
    <div
      className="flex min-h-9 flex-wrap items-center gap-2"
      role="region"
      aria-label="Active filters"
      data-testid="filter-chips"
    >
      {chips.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="no-filters">
          No filters active
        </p>
      ) : (
        <>
          <ul className="flex flex-wrap items-center gap-2">
            {chips.map((chip) => (
              <li
                key={chip.key}
                className="inline-flex max-w-full items-center gap-1 rounded-full bg-indigo-50 py-1 pr-1 pl-3 text-sm text-indigo-800 ring-1 ring-indigo-200 ring-inset"
                data-testid="filter-chip"
                data-key={chip.key}
              >
                <span className="min-w-0 truncate">{chip.label}</span>
                <button
                  type="button"
                  onClick={() => onRemove(chip.key)}
                  aria-label={`Remove filter ${chip.label}`}
                  className="rounded-full p-0.5 text-indigo-700 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <CloseIcon className="h-4 w-4" />
                </button>
              </li>
            ))}
          </ul>
          <Button variant="ghost" size="sm" onClick={onClearAll}>
            Clear all filters
          </Button>
        </>
      )}
    </div>
  );
}
