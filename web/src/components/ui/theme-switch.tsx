import { useId } from 'react';
import { setThemeChoice, THEME_CHOICES, useThemeChoice } from '../../lib/theme';
import { cx } from './cx';

/**
 * The theme switch: System (follow the device), Light or Dark, remembered in this browser. Native radio buttons, so
 * the arrow keys move the choice and a screen reader names the group and what is chosen.
 */
export function ThemeSwitch({ className }: { className?: string }) {
  const choice = useThemeChoice();
  const labelId = useId();
  const name = useId();
  return (
    <div className={cx('flex items-center justify-between gap-3', className)}>
      <span id={labelId} className="text-xs font-medium text-slate-600">
        Theme
      </span>
      <div
        role="radiogroup"
        aria-labelledby={labelId}
        className="inline-flex rounded-lg bg-slate-100 p-0.5 ring-1 ring-slate-200 ring-inset"
        data-testid="theme-switch"
      >
        {THEME_CHOICES.map(({ value, label }) => (
          <label
            key={value}
            className={cx(
              'relative cursor-pointer rounded-md px-2.5 py-1 text-xs font-medium',
              'has-focus-visible:outline-2 has-focus-visible:outline-indigo-600',
              choice === value
                ? 'bg-white text-indigo-700 shadow-sm ring-1 ring-slate-300 ring-inset'
                : 'text-slate-600 hover:text-slate-900',
            )}
          >
            <input
              type="radio"
              name={name}
              value={value}
              checked={choice === value}
              onChange={() => setThemeChoice(value)}
              // Over the whole label, unseen: a click or tap anywhere on the option lands on the radio itself.
              className="absolute inset-0 m-0 cursor-pointer appearance-none opacity-0"
            />
            {label}
          </label>
        ))}
      </div>
    </div>
  );
}
