import { useId, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import type { DistributeButtonState } from '../../../lib/distribution';
import { countOf, creditsOf, formatCount } from '../../../lib/format';

export interface DistributeBarProps {
  selectedCount: number;
  button: DistributeButtonState;
  onDistribute: () => void;
  onClear: () => void;
  /** Actions on the selected tickets' links (Edit Links, Recall Links), beside Clear selection. */
  children?: ReactNode;
}

/**
 * The bottom bar of a selection (docs/reference.md "Tickets Overview screen"): how many are ticked, a way to untick
 * them, and the distribute button ('Distribute', 'Generate Link', 'Generate Links'). Why the button is disabled is
 * written beside it, not only in its tooltip, so touch and keyboard users read it too. It sits in the page's flow after
 * the tickets, stuck to the bottom of the window while they scroll under it: at the end of the page it stands below the
 * last of them, never over it (its negative margins take it to the edges of the page's padding).
 */
export function DistributeBar({ selectedCount, button, onDistribute, onClear, children }: DistributeBarProps) {
  const reasonId = useId();
  const eligible = button.eligibleIds.length;
  return (
    <section
      aria-label="Selected tickets"
      className="sticky bottom-0 z-20 -mx-4 mt-4 -mb-6 border-t border-slate-200 bg-white/95 shadow-[0_-4px_12px_rgba(15,23,42,0.08)] backdrop-blur sm:-mx-6 lg:-mx-8 lg:-mb-8"
      data-testid="distribute-bar"
    >
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3 sm:px-6 lg:px-8">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
          <p className="font-medium text-slate-900" data-testid="selected-count" aria-live="polite">
            {formatCount(selectedCount)} selected
          </p>
          <Button variant="ghost" size="sm" onClick={onClear}>
            Clear selection
          </Button>
          {children}
        </div>
        {/* On a phone the cost (or why not) and the button take a row of their own, side by side. */}
        <div className="flex w-full min-w-0 items-center justify-between gap-3 sm:w-auto sm:justify-end">
          {button.reason ? (
            <p id={reasonId} className="min-w-0 text-sm text-slate-700" data-testid="distribute-reason">
              {button.reason}
            </p>
          ) : (
            <p className="min-w-0 text-sm text-slate-600" data-testid="distribute-cost">
              {countOf(eligible, 'ticket')} · {creditsOf(button.cost)}
            </p>
          )}
          <Button
            onClick={onDistribute}
            disabled={button.disabled}
            title={button.reason ?? undefined}
            aria-describedby={button.reason ? reasonId : undefined}
            className="shrink-0"
            data-testid="distribute-button"
          >
            {button.label}
          </Button>
        </div>
      </div>
    </section>
  );
}
