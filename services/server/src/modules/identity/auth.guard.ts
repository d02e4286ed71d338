import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { REALTIME_PUBLISHER, type RealtimePublisher } from '../../infra/realtime/realtime.publisher.js';
import { type AuthenticatedRequest, IS_ADMIN_ONLY, IS_PUBLIC } from './auth.decorators.js';
import { SESSION_COOKIE, SessionsService } from './sessions.service.js';
import { UserAccounts } from './user-accounts.service.js';

/**
 * Every route needs a live session unless marked @Public; @AdminOnly routes need is_admin.
 * A visitor gets 401, a signed-in non-admin 403, a banned user 403 (and their session ends).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
    private readonly accounts: UserAccounts,
    @Inject(REALTIME_PUBLISHER) private readonly realtime: RealtimePublisher,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = request.cookies?.[SESSION_COOKIE];
    const signedIn = await this.accounts.signedIn(token);
    if (!signedIn) throw new UnauthorizedException('Not authenticated');
    const { user, tokenHash } = signedIn;
    if (user.is_banned) {
      // Whoever ends a user's sessions tells their sockets (the ban's own call and reaction tell only what they end).
      if ((await this.sessions.endAllFor(user.id)) > 0) this.realtime.disconnectUser(user.id, 'banned');
      throw new ForbiddenException('Your account has been banned');
    }
    request.user = user;
    request.sessionTokenHash = tokenHash;
    if (this.reflector.getAllAndOverride<boolean>(IS_ADMIN_ONLY, targets) && !user.is_admin) {
      throw new ForbiddenException('Admin access required');
    }
    return true;
  }
}
