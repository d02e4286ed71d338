import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { THROTTLE_MESSAGES, ThrottleService } from './throttle.service.js';

type ThrottleKind = 'public' | 'sign-in';
const THROTTLE_KIND = 'seatlink:throttle';

/** Counts the call against the caller's limits before anything else of it runs (see ThrottleService). */
@Injectable()
export class ThrottledGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly throttle: ThrottleService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const kind = this.reflector.getAllAndOverride<ThrottleKind | undefined>(THROTTLE_KIND, [
      context.getHandler(),
      context.getClass(),
    ]);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (kind === 'public') await this.throttle.consume('public-ip', request.ip, THROTTLE_MESSAGES.public);
    if (kind === 'sign-in') await this.throttle.consumeSignIn(signInAccount(request.body), request.ip);
    return true;
  }
}

/** The account a sign-in is for, as the login schema will read it (trimmed, lower case). */
export function signInAccount(body: unknown): string {
  const email = (body as { email?: unknown } | null)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : '';
}

/**
 * `public`: a visitor call, limited per IP. `sign-in`: limited per (account, IP), per account and per IP; a correct
 * sign-in then forgives itself (ThrottleService.forgiveSignIn).
 */
export const Throttled = (kind: ThrottleKind) =>
  applyDecorators(SetMetadata(THROTTLE_KIND, kind), UseGuards(ThrottledGuard));
