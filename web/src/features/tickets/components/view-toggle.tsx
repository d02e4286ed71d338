import { cx } from '../../../components/ui/cx';
import { GridIcon, ListIcon } from '../../../components/ui/icons';
import type { ViewMode } from '../tickets.store';

const OPTIONS: ReadonlyArray<{ value: ViewMode; label: string; Icon: typeof GridIcon }> = [
  { value: 'grid', label: 'Grid view', Icon: GridIcon },
  { value: 'list', label: 'List view', Icon: ListIcon },
];

/**
 * Grid or list (docs/reference.md "Tickets Overview screen"); the page hides it on small screens, where the grid is
 * forced.
 */
export function ViewToggle({ view, onChange }: { view: ViewMode; onChange: (view: ViewMode) => void }) {
  return (
    <div
      role="group"
      aria-label="View"
      className="inline-flex rounded-lg bg-white p-0.5 shadow-sm ring-1 ring-slate-300"
    >
      {OPTIONS.map(({ value, label, Icon }) => (
        <button
          key={value}
          type="button"
          aria-pressed={view === value}
          aria-label={label}
          title={label}
          onClick={() => onChange(value)}
          className={cx(
            'rounded-md p-1.5 focus-visible:outline-2 focus-visible:outline-indigo-600',
            view === value ? 'bg-indigo-600 text-white' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
          )}
        >
          <Icon className="h-5 w-5" />
        </button>
      ))}
    </div>
  );
}
