import { cx } from '../../../components/ui/cx';
import { Logo } from '../../../components/ui/logo';

/** A ticket's logo on its card ('md') or its list row ('sm'); loaded as it scrolls near. */
export function TicketLogo({ src, size }: { src: string | null; size: 'sm' | 'md' }) {
  return (
    <Logo
      src={src}
      loading="lazy"
      decoding="async"
      className={cx('shrink-0 rounded-lg bg-slate-50 object-contain', size === 'md' ? 'h-11 w-11' : 'h-8 w-8')}
      testId="ticket-logo"
    />
  );
}
