import { Module } from '@nestjs/common';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { IdentityModule } from '../identity/index.js';
import { AdminHistoryController } from './admin-history.controller.js';
import { AdminUsersController } from './admin-users.controller.js';
import { userStreamsProjection } from './read-models/user-streams.projection.js';
import { UserHistory } from './user-history.service.js';

/** The /v1/admin/users API (every route admin-only), and a user's history at a moment. */
@Module({
  imports: [IdentityModule],
  controllers: [AdminUsersController, AdminHistoryController],
  providers: [UserHistory, provideSubscription(userStreamsProjection)],
})
export class AdminModule {}
