import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { cx } from './cx';

const FOCUSABLE =
  'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';
const GAP = 6;
const EDGE = 8;

export interface PopoverProps {
  /** The trigger's accessible name (and the panel's), e.g. 'Filter Status'. */
  label: string;
  /** What the trigger shows (an icon); it is a button. */
  trigger: ReactNode;
  /** Highlights the trigger (a filter is set). */
  active?: boolean;
  children: ReactNode;
  /** Width of the panel, px. */
  width?: number;
  testId?: string;
}

/**
 * A small panel anchored to a button (a column's filter): the browser's Popover API puts it in the top layer, so no
 * scrolling box clips it, and closes it on Escape or a click outside (light dismiss). Opening moves the focus to its
 * first control; closing while the focus is inside (Escape) gives it back to the button.
 */
export function Popover({ label, trigger, active = false, children, width = 288, testId }: PopoverProps) {
  const id = useId();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);

  const place = useCallback(() => {
    const button = triggerRef.current;
    const panel = panelRef.current;
    if (!button || !panel) return;
    const rect = button.getBoundingClientRect();
    const panelWidth = Math.min(width, window.innerWidth - EDGE * 2);
    const left = Math.min(Math.max(EDGE, rect.left), window.innerWidth - panelWidth - EDGE);
    const below = rect.bottom + GAP;
    const height = panel.offsetHeight;
    // Above the button when it would not fit below.
    const top =
      below + height > window.innerHeight - EDGE && rect.top - GAP - height > EDGE ? rect.top - GAP - height : below;
    panel.style.left = `${left}px`;
    panel.style.top = `${top}px`;
    panel.style.width = `${panelWidth}px`;
  }, [width]);

  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const onBeforeToggle = (event: Event) => {
      if ((event as ToggleEvent).newState === 'open') place();
    };
    const onToggle = (event: Event) => {
      const opened = (event as ToggleEvent).newState === 'open';
      setOpen(opened);
      if (opened) {
        place();
        panel.querySelector<HTMLElement>(FOCUSABLE)?.focus();
      } else {
        const active = document.activeElement;
        if (!active || active === document.body || panel.contains(active)) triggerRef.current?.focus();
      }
    };
    panel.addEventListener('beforetoggle', onBeforeToggle);
    panel.addEventListener('toggle', onToggle);
    return () => {
      panel.removeEventListener('beforetoggle', onBeforeToggle);
      panel.removeEventListener('toggle', onToggle);
    };
  }, [place]);

  // While open it follows its button through scrolling (the page or the table's own box) and resizing.
  useEffect(() => {
    if (!open) return;
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [open, place]);

  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        popoverTarget={id}
        aria-label={label}
        aria-expanded={open}
        aria-haspopup="dialog"
        title={label}
        className={cx(
          'inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-md focus-visible:outline-2 focus-visible:outline-indigo-600',
          active ? 'bg-indigo-100 text-indigo-700' : 'text-slate-500 hover:bg-slate-200 hover:text-slate-800',
        )}
        data-testid={testId ? `${testId}-trigger` : undefined}
        data-active={active ? 'true' : 'false'}
      >
        {trigger}
      </button>
      <div
        ref={panelRef}
        id={id}
        popover="auto"
        role="dialog"
        aria-label={label}
        className="fixed m-0 rounded-xl border border-slate-200 bg-white p-4 text-left text-sm font-normal tracking-normal text-slate-700 normal-case shadow-lg"
        style={{ inset: 'auto' }}
        data-testid={testId}
      >
        {children}
      </div>
    </>
  );
}
