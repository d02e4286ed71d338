import { useState } from 'react';
import { cx } from '../../../components/ui/cx';

/**
 * A ticket's club logo. SPEC.md §2: hidden if it fails to load (or there is none). Decorative: the title beside it
 * names the event.
 */
export function TicketLogo({ src, size }: { src: string | null; size: 'sm' | 'md' }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) return null;
  return (
    <img
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
      className={cx('shrink-0 rounded-lg bg-slate-50 object-contain', size === 'md' ? 'h-11 w-11' : 'h-9 w-9')}
      data-testid="ticket-logo"
    />
  );
}
