import type { ReactNode } from 'react';
import { Brand } from './brand';
import { cx } from './cx';
import { ThemeSwitch } from './theme-switch';

export interface AuthShellProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Under the card (links to the other public screens). */
  footer?: ReactNode;
  /** Above the brand (e.g. a back button). */
  top?: ReactNode;
  size?: 'sm' | 'md';
}

/** The frame of the public screens (sign in, register, waitlist, reset, verify): brand, title and a card. */
export function AuthShell({ title, subtitle, children, footer, top, size = 'sm' }: AuthShellProps) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-50 to-indigo-50 px-4 py-12">
      <div className={cx('w-full', size === 'md' ? 'max-w-md' : 'max-w-sm')}>
        {top ? <div className="mb-6">{top}</div> : null}
        <div className="mb-8 flex flex-col items-center gap-3 text-center">
          <Brand size="lg" />
          <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
          {subtitle ? <div className="text-sm text-slate-500">{subtitle}</div> : null}
        </div>
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">{children}</div>
        {footer ? <div className="mt-6 text-center text-sm text-slate-500">{footer}</div> : null}
        <ThemeSwitch className="mx-auto mt-8 w-fit" />
      </div>
    </main>
  );
}

export const linkClassName = 'font-medium text-indigo-600 hover:text-indigo-500';
