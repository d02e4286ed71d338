import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { AccountController } from './account.controller.js';
import { AuthController } from './auth.controller.js';
import { AuthGuard } from './auth.guard.js';
import { AuthTokensService } from './auth-tokens.service.js';
import { GetUserHandler, ListUsersHandler } from './get-user.query.js';
import { IdentityMailReaction } from './identity-mail.reaction.js';
import {
  RequestPasswordResetJob,
  RequestSignInLinkJob,
  RequestVerificationEmailJob,
} from './identity-requests.jobs.js';
import { PasswordHasher } from './password-hasher.js';
import { PurgeSessionsJob } from './purge-sessions.job.js';
import { usersProjection } from './read-models/users/users.projection.js';
import { RegistrationClaimsWatch, ReleaseRegistrationClaimsJob } from './register-user.compensation.job.js';
import { RegisterUserFlow } from './register-user.flow.js';
import { SessionsReaction } from './sessions.reaction.js';
import { SessionsService } from './sessions.service.js';
import { SessionSocketAuthenticator } from './socket-authenticator.js';
import { SOCKET_AUTHENTICATOR } from '../../infra/realtime/socket-authenticator.port.js';
import { UserAccounts } from './user-accounts.service.js';
import { EmailClaimCommandHandler, UserCommandHandler } from './user.handler.js';

/** Sessions alone. */
@Module({ providers: [SessionsService], exports: [SessionsService] })
export class SessionsModule {}

/** How the socket.io gateway (infra) admits sockets: by the session cookie. Global, as the gateway's port. */
@Global()
@Module({
  imports: [SessionsModule],
  providers: [
    UserAccounts,
    SessionSocketAuthenticator,
    { provide: SOCKET_AUTHENTICATOR, useExisting: SessionSocketAuthenticator },
  ],
  exports: [SOCKET_AUTHENTICATOR, UserAccounts],
})
export class SocketAuthenticationModule {}

/**
 * Sign-in, registration, verification, password reset, sessions, and the guard every route passes; the users read
 * model, the reactions that e-mail links and end sessions, and the jobs behind the visitor requests.
 */
@Module({
  imports: [SessionsModule, SocketAuthenticationModule],
  controllers: [AuthController, AccountController],
  providers: [
    PasswordHasher,
    AuthTokensService,
    RegisterUserFlow,
    UserCommandHandler,
    EmailClaimCommandHandler,
    GetUserHandler,
    ListUsersHandler,
    provideSubscription(usersProjection),
    IdentityMailReaction,
    SessionsReaction,
    RequestPasswordResetJob,
    RequestVerificationEmailJob,
    RequestSignInLinkJob,
    ReleaseRegistrationClaimsJob,
    RegistrationClaimsWatch,
    PurgeSessionsJob,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [SessionsModule, SocketAuthenticationModule],
})
export class IdentityModule {}
