import { Module } from '@nestjs/common';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { AdminInvitesController } from './admin-invites.controller.js';
import { InviteCommandHandler } from './invite.handler.js';
import { inviteCodesProjection } from './read-models/invite-codes/invite-codes.projection.js';

/** Invite codes: registration consumes a use; admins create, disable and delete them. */
@Module({
  controllers: [AdminInvitesController],
  providers: [InviteCommandHandler, provideSubscription(inviteCodesProjection)],
})
export class InvitesModule {}
