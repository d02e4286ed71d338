import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthController } from './auth.controller.js';
import { AuthGuard } from './auth.guard.js';
import { GetUserHandler, ListUsersHandler } from './get-user.query.js';
import { PasswordHasher } from './password-hasher.js';
import { RecordLoginHandler } from './record-login.handler.js';
import { RegisterUserHandler } from './register-user.handler.js';
import { SessionsService } from './sessions.service.js';

/** Sessions alone: the socket.io gateway authenticates its handshakes with them. */
@Module({ providers: [SessionsService], exports: [SessionsService] })
export class SessionsModule {}

const handlers = [RegisterUserHandler, RecordLoginHandler, GetUserHandler, ListUsersHandler];

/** Sign-in, sessions, the current user, and the guard every route passes. */
@Module({
  imports: [SessionsModule],
  controllers: [AuthController],
  providers: [PasswordHasher, ...handlers, { provide: APP_GUARD, useClass: AuthGuard }],
})
export class IdentityModule {}

/** The identity commands and queries without HTTP: for the worker and the CLIs. */
@Module({ imports: [SessionsModule], providers: [PasswordHasher, ...handlers] })
export class IdentityCoreModule {}
