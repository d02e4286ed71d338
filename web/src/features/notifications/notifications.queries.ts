import { type InfiniteData, infiniteQueryOptions, type QueryClient } from '@tanstack/react-query';
import type { AppNotification, NotificationsResponse } from '@seatlink/contracts';
import { getNotifications } from './api/get-notifications';

export const NOTIFICATIONS_KEY = ['notifications'] as const;

/** The bell's list: pages of notifications (the first holds the unread count), the next asked with `before`. */
export const notificationsQuery = () =>
  infiniteQueryOptions({
    queryKey: NOTIFICATIONS_KEY,
    queryFn: ({ pageParam }) => getNotifications(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: NotificationsResponse) => last.next_before ?? undefined,
  });

export type NotificationPages = InfiniteData<NotificationsResponse, unknown>;

/** The notifications of every page loaded, each once (a notification that grew between two pages moves up). */
export function loadedNotifications(data: NotificationPages | undefined): AppNotification[] {
  const seen = new Set<string>();
  const all: AppNotification[] = [];
  for (const page of data?.pages ?? []) {
    for (const n of page.notifications) {
      if (seen.has(n.id)) continue;
      seen.add(n.id);
      all.push(n);
    }
  }
  return all;
}

export function unreadOf(data: NotificationPages | undefined): number {
  return data?.pages[0]?.unread ?? 0;
}

/** Shows these notifications read (all, when `ids` is null) and the unread count the server gave, before it answers. */
export function markReadInCache(client: QueryClient, ids: ReadonlySet<string> | null, unread?: number): void {
  client.setQueryData<NotificationPages>(NOTIFICATIONS_KEY, (data) => {
    if (!data) return data;
    let newlyRead = 0;
    const pages = data.pages.map((page) => ({
      ...page,
      notifications: page.notifications.map((n) => {
        if (n.read || (ids !== null && !ids.has(n.id))) return n;
        newlyRead++;
        return { ...n, read: true };
      }),
    }));
    const first = pages[0];
    if (first) first.unread = unread ?? (ids === null ? 0 : Math.max(0, first.unread - newlyRead));
    return { ...data, pages };
  });
}

/** The unread count a push gave. */
export function setUnreadInCache(client: QueryClient, unread: number): void {
  client.setQueryData<NotificationPages>(NOTIFICATIONS_KEY, (data) =>
    data?.pages[0] ? { ...data, pages: [{ ...data.pages[0], unread }, ...data.pages.slice(1)] } : data,
  );
}
