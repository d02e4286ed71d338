import { Module } from '@nestjs/common';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsCommandHandler } from './notifications.handler.js';
import { notificationsProjection } from './read-models/notifications.projection.js';

/**
 * The notification centre: what happened to a user's links (claimed, at their limit, expiring), wallet accounts
 * (needing a new sign-in) and credits (a payment), kept as a read model of those events and the user's reads.
 */
@Module({
  controllers: [NotificationsController],
  providers: [NotificationsCommandHandler, provideSubscription(notificationsProjection)],
})
export class NotificationsModule {}
