import { Module } from '@nestjs/common';
import { AdminInvitesController } from './admin-invites.controller.js';
import { InviteCommandHandler } from './invite.handlers.js';

/** Invite codes: registration consumes a use; admins create, disable and delete them. */
@Module({ controllers: [AdminInvitesController], providers: [InviteCommandHandler] })
export class InvitesModule {}

/** The invite commands without HTTP (worker, CLIs). */
@Module({ providers: [InviteCommandHandler] })
export class InvitesCoreModule {}
