import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { AdminUsersController } from './admin-users.controller.js';

/** The /v1/admin/users API (every route admin-only). */
@Module({ imports: [IdentityModule], controllers: [AdminUsersController] })
export class AdminModule {}
