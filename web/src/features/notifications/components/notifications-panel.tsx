import type { RefObject } from 'react';
import { Dialog, Popover } from 'react-aria-components';
import { useNavigate } from 'react-router-dom';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import { type AppNotification, claimantText, NOTIFICATION_MESSAGES, notificationText } from '@seatlink/contracts';
import { cx } from '../../../components/ui/cx';
import { EnGb } from '../../../components/ui/react-aria/en-gb';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { readNotifications } from '../api/read-notifications';
import {
  loadedNotifications,
  markReadInCache,
  NOTIFICATIONS_KEY,
  notificationsQuery,
  setUnreadInCache,
  unreadOf,
} from '../notifications.queries';

const FETCH_FAILED = 'Failed to fetch notifications';
const READ_FAILED = 'Failed to mark notifications as read';

/** Where a notification takes its reader: the tickets (links, credits) or the accounts (a sign-in needed). */
const destination = (n: AppNotification) => (n.kind === 'account_reauth' ? '/dashboard/accounts' : '/dashboard');

/** Who made a claim notification's latest claim ("claimed by Sam · iPhone"), when the claim said. */
function Claimant({ notification }: { notification: AppNotification }) {
  const text = notification.kind === 'link_claimed' ? claimantText(notification.claimed_by) : null;
  if (!text) return null;
  return (
    <span className="mt-0.5 block text-xs break-words text-slate-700" data-testid="notification-claimant">
      <bdi>{notification.count > 1 ? `last ${text}` : text}</bdi>
    </span>
  );
}

/**
 * The notifications under the bell (React Aria's Popover and Dialog): newest first, unread ones marked, a page at a
 * time ('Load more'). Pressing one marks it read and goes where it is about; 'Mark all as read' reads them all.
 * Escape or a click outside closes it, and focus goes back to the bell.
 */
export function NotificationsPanel({
  triggerRef,
  onClose,
}: {
  triggerRef: RefObject<HTMLButtonElement | null>;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const { data, error, isFetching, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useInfiniteQuery(notificationsQuery());
  const list = loadedNotifications(data);
  const unread = unreadOf(data);

  const markRead = (ids: string[] | null) => {
    markReadInCache(client, ids === null ? null : new Set(ids));
    readNotifications(ids === null ? { all: true } : { ids })
      .then((answer) => setUnreadInCache(client, answer.unread))
      .catch((err: unknown) => {
        toast.error(errorMessage(err, READ_FAILED));
        void client.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
      });
  };
  const open = (n: AppNotification) => {
    if (!n.read) markRead([n.id]);
    onClose();
    void navigate(destination(n));
  };

  return (
    <EnGb>
      <Popover
        triggerRef={triggerRef}
        isOpen
        onOpenChange={(isOpen) => {
          if (!isOpen) onClose();
        }}
        placement="bottom end"
        offset={6}
        containerPadding={8}
        className="z-40 rounded-xl border border-slate-200 bg-white text-sm text-slate-700 shadow-lg"
        style={{ width: 'min(380px, calc(100vw - 16px))' }}
      >
        <Dialog aria-label="Notifications" className="outline-none" data-testid="notifications-panel">
          <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-4 py-3">
            <h2 className="text-base font-semibold text-slate-900">Notifications</h2>
            {unread > 0 ? (
              <button
                type="button"
                onClick={() => markRead(null)}
                className="rounded-md px-2 py-1 text-sm font-medium text-indigo-700 hover:bg-indigo-50"
              >
                {NOTIFICATION_MESSAGES.markAllRead}
              </button>
            ) : null}
          </div>
          <div className="max-h-[min(28rem,70vh)] overflow-y-auto">
            {!data && isFetching ? <p className="px-4 py-6 text-slate-500">Loading...</p> : null}
            {!data && error ? <p className="px-4 py-6 text-red-700">{errorMessage(error, FETCH_FAILED)}</p> : null}
            {data && list.length === 0 ? (
              <p className="px-4 py-6 text-slate-500">{NOTIFICATION_MESSAGES.empty}</p>
            ) : null}
            <ul className="divide-y divide-slate-100">
              {list.map((n) => (
                <li key={n.id}>
                  <button
                    type="button"
                    onClick={() => open(n)}
                    data-testid="notification"
                    data-read={n.read ? 'true' : 'false'}
                    className={cx(
                      'flex w-full items-start gap-3 px-4 py-3 text-left hover:bg-slate-50',
                      !n.read && 'bg-indigo-50/50',
                    )}
                  >
                    <span
                      aria-hidden="true"
                      className={cx(
                        'mt-1.5 h-2 w-2 shrink-0 rounded-full',
                        n.read ? 'bg-transparent' : 'bg-indigo-600',
                      )}
                    />
                    <span className="min-w-0 flex-1">
                      <span className={cx('block break-words', !n.read && 'font-medium text-slate-900')}>
                        {notificationText(n, (iso) => formatDateTime(iso))}
                        {n.read ? null : <span className="sr-only"> (unread)</span>}
                      </span>
                      <Claimant notification={n} />
                      <time dateTime={n.updated_at} className="mt-0.5 block text-xs text-slate-500">
                        {formatDateTime(n.updated_at)}
                      </time>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            {hasNextPage ? (
              <div className="border-t border-slate-100 p-2 text-center">
                <button
                  type="button"
                  disabled={isFetchingNextPage}
                  onClick={() => void fetchNextPage()}
                  className="rounded-md px-3 py-1.5 text-sm font-medium text-indigo-700 hover:bg-indigo-50 disabled:opacity-60"
                >
                  {isFetchingNextPage ? 'Loading...' : 'Load more'}
                </button>
              </div>
            ) : null}
          </div>
        </Dialog>
      </Popover>
    </EnGb>
  );
}
