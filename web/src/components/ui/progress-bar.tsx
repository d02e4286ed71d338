import { cx } from './cx';

export type ProgressTone = 'green' | 'blue' | 'yellow' | 'indigo' | 'red';

const fills: Record<ProgressTone, string> = {
  green: 'bg-green-500',
  blue: 'bg-blue-500',
  yellow: 'bg-yellow-400',
  indigo: 'bg-indigo-500',
  red: 'bg-red-500',
};

export interface ProgressBarProps {
  /** 0 to `max`; omitted for a bar that only says something is under way. */
  value?: number;
  max?: number;
  tone: ProgressTone;
  /** The bar's accessible name. */
  label: string;
  /** What the value means, read out instead of a bare number ("3 of 4 distributed"). */
  valueText?: string;
  className?: string;
  testId?: string;
}

/** A thin progress bar (role progressbar). Without a value it pulses, for work whose end is not known. */
export function ProgressBar({ value, max = 100, tone, label, valueText, className, testId }: ProgressBarProps) {
  const known = value !== undefined && max > 0;
  const percent = known ? Math.min(100, Math.max(0, (value / max) * 100)) : 100;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={known ? 0 : undefined}
      aria-valuemax={known ? max : undefined}
      aria-valuenow={known ? Math.min(max, Math.max(0, value)) : undefined}
      aria-valuetext={valueText}
      data-testid={testId}
      data-tone={tone}
      className={cx('h-2 w-full overflow-hidden rounded-full bg-slate-100', className)}
    >
      <div
        className={cx(
          'h-full rounded-full transition-[width] duration-300',
          fills[tone],
          !known && 'motion-safe:animate-pulse',
        )}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
