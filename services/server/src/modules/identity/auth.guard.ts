import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type ApiKeyScope, MFA_MESSAGES, type StepUpMethod } from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { SESSION_COOKIE } from '../../infra/http/session-cookie.js';
import {
  type AuthenticatedRequest,
  IS_ADMIN_ONLY,
  IS_PUBLIC,
  NEEDS_STEP_UP,
  API_KEY_SCOPE,
} from '../../infra/http/auth.decorators.js';
import type { FastifyReply } from 'fastify';
import { ApiKeyAdmission, bearerOf } from './api-key-admission.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { SessionPolicy } from './session-policy.js';
import { SessionsService } from './sessions.service.js';
import { UserAccounts } from './user-accounts.service.js';
import { clock } from '../../shared/clock.js';

/**
 * Every route needs a live session unless marked @Public; @AdminOnly routes need is_admin.
 * A visitor gets 401, a signed-in non-admin 403, a banned user 403 (and their session ends), an admin without a second
 * factor 403 MFA_ENROLMENT_REQUIRED (where ADMIN_MFA=required).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly policy: SessionPolicy,
    private readonly sessions: SessionsService,
    private readonly accounts: UserAccounts,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly apiKeys: ApiKeyAdmission,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const adminOnly = this.reflector.getAllAndOverride<boolean>(IS_ADMIN_ONLY, targets) === true;
    const bearer = bearerOf(request.headers.authorization);
    if (bearer !== undefined) {
      // An API key stands for the user on the calls open to keys; it has no session (no admin call; its scope is its
      // fresh proof where a session would need one).
      const scope = this.reflector.getAllAndOverride<ApiKeyScope | undefined>(API_KEY_SCOPE, targets);
      const reply = context.switchToHttp().getResponse<FastifyReply>();
      const { user, key } = await this.apiKeys.admit(bearer, request, reply, { scope, adminOnly });
      request.user = user;
      request.apiKey = key;
      return true;
    }
    const admitted = await this.policy.authenticate(request.cookies?.[SESSION_COOKIE], adminOnly ? 'admin' : 'user');
    if (!admitted.ok) {
      if (admitted.refused === 'banned') throw new ForbiddenException('Your account has been banned');
      if (admitted.refused === 'not-admin') throw new ForbiddenException('Admin access required');
      if (admitted.refused === 'mfa-enrolment') {
        throw new ForbiddenException({ message: MFA_MESSAGES.enrolmentRequired, code: 'MFA_ENROLMENT_REQUIRED' });
      }
      throw new UnauthorizedException('Not authenticated');
    }
    request.user = admitted.user;
    request.sessionTokenHash = admitted.sessionId;
    if (this.reflector.getAllAndOverride<boolean>(NEEDS_STEP_UP, targets) === true) {
      const proven = await this.sessions.provenAt(admitted.sessionId);
      if (!proven || clock.now().getTime() - proven.getTime() > this.config.STEP_UP_MINUTES * 60_000) {
        const state = await this.accounts.state(admitted.user.id);
        const passkey = state.passkeys.length > 0;
        const method: StepUpMethod = state.totpEnabled ? 'totp' : passkey ? 'passkey' : 'password';
        const message = {
          totp: MFA_MESSAGES.stepUpCode,
          passkey: MFA_MESSAGES.stepUpPasskey,
          password: MFA_MESSAGES.stepUpPassword,
        }[method];
        throw new DomainError(message, 'STEP_UP_REQUIRED', 403, { method, passkey });
      }
    }
    return true;
  }
}
