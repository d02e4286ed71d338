import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { CaptchaAction } from '@seatlink/contracts';
import type { FastifyRequest } from 'fastify';
import { CAPTCHA_VERIFIER, type CaptchaVerifier, requireHuman } from './captcha.port.js';

const HUMAN_ACTION = 'seatlink:human-check';

/** Checks the body's `token` (reCAPTCHA v3) for the route's action before the route runs. */
@Injectable()
export class HumanCheckGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(CAPTCHA_VERIFIER) private readonly captcha: CaptchaVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const action = this.reflector.get<CaptchaAction | undefined>(HUMAN_ACTION, context.getHandler());
    if (!action) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = (request.body as { token?: unknown } | null)?.token;
    await requireHuman(this.captcha, typeof token === 'string' ? token : null, action, request.ip);
    return true;
  }
}

/** The route needs a passing human check for `action` (the body's `token`). */
export const HumanCheck = (action: CaptchaAction) =>
  applyDecorators(SetMetadata(HUMAN_ACTION, action), UseGuards(HumanCheckGuard));
