import { Module } from '@nestjs/common';
import { AdminUsersController } from './admin-users.controller.js';

/** The /v1/admin API (every route admin-only). */
@Module({ controllers: [AdminUsersController] })
export class AdminModule {}
