import { NOTIFICATION_KINDS } from '@seatlink/contracts';
import { rowProjection } from '../../../infra/subscriptions/row-projection.js';
import type { NotificationPreferencesSet } from '../notifications.events.js';
import { notificationPreferences } from '../notifications.schema.js';

/** `notification_preferences`: each user's e-mail choices as last set, and when each kind was turned on. */
export const notificationPreferencesProjection = rowProjection<
  typeof notificationPreferences,
  NotificationPreferencesSet
>({
  name: 'notification-preferences',
  table: notificationPreferences,
  key: 'userId',
  handles: ['NotificationPreferencesSet'],
  keyOf: (event) => event.data.userId,
  evolve: (row, { data }) => {
    const since = { ...(row?.since ?? {}) };
    for (const kind of NOTIFICATION_KINDS) {
      const was = row?.email[kind] ?? 'off';
      if (data.email[kind] !== 'off' && was === 'off') since[kind] = data.at;
    }
    return { userId: data.userId, email: data.email, since };
  },
});
