import type { ReactNode } from 'react';
import { cx } from './cx';

type Tone = 'green' | 'red' | 'slate' | 'indigo' | 'amber' | 'blue';

const tones: Record<Tone, string> = {
  green: 'bg-green-50 text-green-700 ring-green-600/20',
  red: 'bg-red-50 text-red-700 ring-red-600/20',
  slate: 'bg-slate-50 text-slate-600 ring-slate-500/20',
  indigo: 'bg-indigo-50 text-indigo-700 ring-indigo-600/20',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  blue: 'bg-blue-50 text-blue-700 ring-blue-600/20',
};

export function Badge({
  tone,
  children,
  testId,
  title,
}: {
  tone: Tone;
  children: ReactNode;
  testId?: string;
  /** Said on hover and read out with it. */
  title?: string;
}) {
  return (
    <span
      data-testid={testId}
      title={title}
      className={cx(
        'inline-flex shrink-0 items-center rounded-md px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        tones[tone],
      )}
    >
      {children}
    </span>
  );
}
