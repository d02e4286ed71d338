import { routes, type NotificationsReadRequest, type NotificationsReadResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/notifications/read {ids} or {all: true}: answers how many are still unread. */
export function readNotifications(body: NotificationsReadRequest): Promise<NotificationsReadResponse> {
  return callApi(routes.readNotifications, { body });
}
