import { cx } from './cx';

/** The product brand: logo mark and name. */
export function Brand({ size = 'md', className }: { size?: 'md' | 'lg'; className?: string }) {
  const mark = size === 'lg' ? 'h-10 w-10' : 'h-8 w-8';
  return (
    <span className={cx('inline-flex items-center gap-2', className)}>
      <svg viewBox="0 0 32 32" className={mark} aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-indigo-600" />
        <path d="M9 12h14v3a2 2 0 0 0 0 4v3H9v-3a2 2 0 0 0 0-4z" className="fill-white" />
      </svg>
      <span className={cx('font-bold tracking-tight text-slate-900', size === 'lg' ? 'text-2xl' : 'text-lg')}>
        Seatlink
      </span>
    </span>
  );
}
