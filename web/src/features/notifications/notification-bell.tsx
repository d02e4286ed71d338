import { Suspense, useRef, useState } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { BellIcon } from '../../components/ui/icons';
import { cx } from '../../components/ui/cx';
import { lazyChunk } from '../../lib/chunk-loader';
import { useServerEvent } from '../../lib/realtime';
import { NOTIFICATIONS_KEY, notificationsQuery, setUnreadInCache, unreadOf } from './notifications.queries';

// The panel (React Aria's popover) is a chunk of its own: the bell is on every signed-in page, the panel rarely open.
const NotificationsPanel = lazyChunk(
  () => import('./components/notifications-panel'),
  (m) => m.NotificationsPanel,
);

/** The unread count as the badge shows it. */
export const unreadBadge = (unread: number) => (unread > 99 ? '99+' : String(unread));

/**
 * The bell of the signed-in frame: the unread count on it, kept current by `notifications.updated` pushes (which
 * also read the list again); pressed, the panel of notifications opens under it.
 */
export function NotificationBell({ className }: { className?: string }) {
  const client = useQueryClient();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const { data } = useInfiniteQuery(notificationsQuery());
  const unread = unreadOf(data);

  useServerEvent('notifications.updated', ({ unread: now }) => {
    setUnreadInCache(client, now);
    void client.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
  });

  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        aria-expanded={open}
        aria-haspopup="dialog"
        data-testid="notification-bell"
        className={cx(
          'relative rounded-lg p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900',
          'focus-visible:outline-2 focus-visible:outline-indigo-600',
          className,
        )}
      >
        <BellIcon />
        {unread > 0 ? (
          <span
            data-testid="notification-count"
            aria-hidden="true"
            className="absolute -top-0.5 -right-0.5 min-w-[1.125rem] rounded-full bg-red-600 px-1 text-center text-[0.6875rem] leading-[1.125rem] font-semibold text-white"
          >
            {unreadBadge(unread)}
          </span>
        ) : null}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <NotificationsPanel triggerRef={triggerRef} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
