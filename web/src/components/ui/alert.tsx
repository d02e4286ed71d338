import type { HTMLAttributes } from 'react';
import { cx } from './cx';

type Tone = 'error' | 'success' | 'warning' | 'info';

const tones: Record<Tone, string> = {
  error: 'border-red-200 bg-red-50 text-red-700',
  success: 'border-green-200 bg-green-50 text-green-700',
  warning: 'border-amber-200 bg-amber-50 text-amber-800',
  info: 'border-slate-200 bg-slate-50 text-slate-700',
};

export interface AlertProps extends HTMLAttributes<HTMLDivElement> {
  tone: Tone;
}

/** A coloured message box; errors are announced to assistive technology as alerts. */
export function Alert({ tone, className, ...props }: AlertProps) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cx('rounded-lg border px-3 py-2 text-sm', tones[tone], className)}
      {...props}
    />
  );
}
