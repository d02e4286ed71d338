import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { AccountController } from './account.controller.js';
import { AuthController } from './auth.controller.js';
import { ApiKeyAdmission } from './api-key-admission.js';
import { MfaController } from './mfa.controller.js';
import { PasskeysController } from './passkeys.controller.js';
import { Passkeys } from './passkeys.service.js';
import { SessionsController } from './sessions.controller.js';
import { SignIns } from './sign-ins.service.js';
import { TotpService } from './totp.service.js';
import { AuthGuard } from './auth.guard.js';
import { AuthTokensService } from './auth-tokens.service.js';
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
import { SessionPolicy } from './session-policy.js';
import { SessionsReaction } from './sessions.reaction.js';
import { SessionsService } from './sessions.service.js';
import { SessionSocketAuthenticator } from './socket-authenticator.js';
import { SESSION_GATE } from '../../infra/http/session-gate.port.js';
import { SOCKET_AUTHENTICATOR } from '../../infra/realtime/socket-authenticator.port.js';
import { UserAccounts } from './user-accounts.service.js';
import { EmailClaimCommandHandler, UserCommandHandler } from './user.handler.js';

/** Sessions alone. */
@Module({ providers: [SessionsService], exports: [SessionsService] })
export class SessionsModule {}

/**
 * The session policy, and the ports through which infra asks it: how the socket.io gateway admits sockets and the
 * queue board its callers. Global, as those ports are.
 */
@Global()
@Module({
  imports: [SessionsModule],
  providers: [
    UserAccounts,
    SessionPolicy,
    SessionSocketAuthenticator,
    { provide: SOCKET_AUTHENTICATOR, useExisting: SessionSocketAuthenticator },
    { provide: SESSION_GATE, useExisting: SessionPolicy },
  ],
  exports: [SOCKET_AUTHENTICATOR, SESSION_GATE, SessionPolicy, UserAccounts],
})
export class SessionPolicyModule {}

/**
 * Sign-in, registration, verification, password reset, sessions, and the guard every route passes; the users read
 * model, the reactions that e-mail links and end sessions, and the jobs behind the visitor requests.
 */
@Module({
  imports: [SessionsModule, SessionPolicyModule],
  controllers: [AuthController, AccountController, MfaController, PasskeysController, SessionsController],
  providers: [
    PasswordHasher,
    AuthTokensService,
    SignIns,
    TotpService,
    ApiKeyAdmission,
    Passkeys,
    RegisterUserFlow,
    UserCommandHandler,
    EmailClaimCommandHandler,
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
  exports: [SessionsModule, SessionPolicyModule],
})
export class IdentityModule {}
