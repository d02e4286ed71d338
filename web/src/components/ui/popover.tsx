import { useEffect, useRef, type ReactNode } from 'react';
import { Button, Dialog, DialogTrigger, Popover as AriaPopover } from 'react-aria-components';
import { cx } from './cx';
import { focusInitial } from './focus';
import { EnGb } from './react-aria/en-gb';

export interface PopoverProps {
  /** The trigger's accessible name (and the panel's), e.g. 'Filter Status'. */
  label: string;
  /** What the trigger shows (an icon); it is a button. */
  trigger: ReactNode;
  /** Highlights the trigger (a filter is set). */
  active?: boolean;
  children: ReactNode;
  /** Width of the panel, px (narrower on a small screen). */
  width?: number;
  testId?: string;
}

/**
 * Moves the focus to the panel's first control once it is open: after the layout effects that place the panel, and
 * before React Aria's dialog would focus itself (which it leaves undone when the focus is already inside).
 */
function PanelContent({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const panel = ref.current?.closest<HTMLElement>('[role="dialog"]') ?? null;
    focusInitial(panel);
  }, []);
  return <div ref={ref}>{children}</div>;
}

/**
 * A small panel anchored to a button (a column's filter), React Aria's Popover holding a Dialog: it is placed below
 * the button, or above when there is no room, and follows it through scrolling; Escape or a click outside closes it
 * (docs/reference.md "User Audit Log screen": 'closed by Escape or click outside'). Opening moves the focus to its
 * first control; closing gives it back to the button.
 */
export function Popover({ label, trigger, active = false, children, width = 288, testId }: PopoverProps) {
  return (
    <EnGb>
      <DialogTrigger>
        <Button
          aria-label={label}
          className={cx(
            'inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-md outline-none',
            'data-focus-visible:outline-2 data-focus-visible:outline-indigo-600',
            active ? 'bg-indigo-100 text-indigo-700' : 'text-slate-500 hover:bg-slate-200 hover:text-slate-800',
          )}
          data-testid={testId ? `${testId}-trigger` : undefined}
          data-active={active ? 'true' : 'false'}
        >
          {trigger}
        </Button>
        <AriaPopover
          placement="bottom start"
          offset={6}
          containerPadding={8}
          className="rounded-xl border border-slate-200 bg-white text-left text-sm font-normal tracking-normal text-slate-700 normal-case shadow-lg"
          style={{ width: `min(${width}px, calc(100vw - 16px))` }}
        >
          <Dialog aria-label={label} className="max-h-[inherit] overflow-auto p-4 outline-none" data-testid={testId}>
            <PanelContent>{children}</PanelContent>
          </Dialog>
        </AriaPopover>
      </DialogTrigger>
    </EnGb>
  );
}
