import { routes, type NotificationPreferences, type NotificationPreferencesRequest } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/me/notification-preferences: how each kind of notification comes by e-mail. */
export function getNotificationPreferences(): Promise<NotificationPreferences> {
  return callApi(routes.notificationPreferences);
}

/** PUT /v1/me/notification-preferences: changes the kinds given; answers them all. */
export function setNotificationPreferences(body: NotificationPreferencesRequest): Promise<NotificationPreferences> {
  return callApi(routes.setNotificationPreferences, { body });
}
