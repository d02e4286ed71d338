import { DEFAULT_NOTIFICATIONS_PAGE, routes, type NotificationsResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/notifications?limit&before: a page of the user's notifications, newest first, and the unread count. */
export function getNotifications(before?: string): Promise<NotificationsResponse> {
  return callApi(routes.listNotifications, { query: { limit: DEFAULT_NOTIFICATIONS_PAGE, before } });
}
