import { useId, type ReactNode } from 'react';
import { cx } from './cx';

export interface SwitchProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: ReactNode;
  /** Ids of texts that describe the switch (its helper). */
  describedBy?: string;
  testId?: string;
}

/** An on/off switch (a button with role switch) and its label; Space and Enter toggle it. */
export function Switch({ checked, onChange, label, describedBy, testId }: SwitchProps) {
  const id = useId();
  return (
    <div className="flex items-center gap-3">
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={describedBy}
        onClick={() => onChange(!checked)}
        data-testid={testId}
        className={cx(
          'relative inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full transition-colors',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
          checked ? 'bg-indigo-600' : 'bg-slate-400',
        )}
      >
        <span
          aria-hidden="true"
          className={cx(
            'pointer-events-none absolute top-0.5 left-0.5 h-5 w-5 rounded-full bg-white shadow transition-transform',
            checked && 'translate-x-5',
          )}
        />
      </button>
      <label htmlFor={id} className="cursor-pointer text-sm font-medium text-slate-700">
        {label}
      </label>
    </div>
  );
}
