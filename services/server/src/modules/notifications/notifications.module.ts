import { Module } from '@nestjs/common';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { NotificationPreferencesController } from './notification-preferences.controller.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsCommandHandler } from './notifications.handler.js';
import { notificationPreferencesProjection } from './read-models/notification-preferences.projection.js';
import { notificationsProjection } from './read-models/notifications.projection.js';
import { SendNotificationEmailsJob } from './send-notification-emails.job.js';
import { UnsubscribeController } from './unsubscribe.controller.js';

/**
 * The notification centre: what happened to a user's links (claimed, at their limit, expiring), wallet accounts
 * (needing a new sign-in) and credits (a payment), kept as a read model of those events and the user's reads; and the
 * e-mails of the kinds each user chose (at once or in a daily digest), with a one-click unsubscribe.
 */
@Module({
  controllers: [NotificationsController, NotificationPreferencesController, UnsubscribeController],
  providers: [
    NotificationsCommandHandler,
    SendNotificationEmailsJob,
    provideSubscription(notificationsProjection),
    provideSubscription(notificationPreferencesProjection),
  ],
})
export class NotificationsModule {}
