import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountController } from './account.controller.js';
import { AuthController } from './auth.controller.js';
import { AuthGuard } from './auth.guard.js';
import { AuthTokensService } from './auth-tokens.service.js';
import { GetUserHandler, ListUsersHandler } from './get-user.query.js';
import { IdentityMailService } from './identity-mail.service.js';
import { PasswordHasher } from './password-hasher.js';
import { RegisterUserHandler } from './register-user.handler.js';
import { SessionsService } from './sessions.service.js';
import { UserCommandHandler } from './user-command.handler.js';

/** Sessions alone: the socket.io gateway authenticates its handshakes with them. */
@Module({ providers: [SessionsService], exports: [SessionsService] })
export class SessionsModule {}

const handlers = [RegisterUserHandler, UserCommandHandler, GetUserHandler, ListUsersHandler];

/** Sign-in, registration, verification, password reset, sessions, and the guard every route passes. */
@Module({
  imports: [SessionsModule],
  controllers: [AuthController, AccountController],
  providers: [
    PasswordHasher,
    AuthTokensService,
    IdentityMailService,
    ...handlers,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [SessionsModule, IdentityMailService],
})
export class IdentityModule {}

/** The identity commands and queries without HTTP: for the worker and the CLIs. */
@Module({ imports: [SessionsModule], providers: [PasswordHasher, ...handlers] })
export class IdentityCoreModule {}
