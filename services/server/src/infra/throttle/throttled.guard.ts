import {
  applyDecorators,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  SetMetadata,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { from, mergeMap, type Observable } from 'rxjs';
import { type AllowanceKind, THROTTLE_MESSAGES, ThrottleService } from './throttle.service.js';

/**
 * - `public`: a visitor call, limited per IP.
 * - `sign-in`: limited per (account, IP) and per IP; past the account's count from anywhere it needs a second proof
 *   (signInNeedsSecondProof); a correct sign-in then forgives itself (ThrottleService.forgiveSignIn).
 * - `top-up`: a card payment, per user and per IP; a payment that succeeded gives its attempt back.
 * - `wallet-sign-in`: one sign-in to the wallet provider (link, re-authenticate), per user and per IP; an account
 *   linked gives its attempt back.
 * - `wallet-sign-in-batch`: as `wallet-sign-in`, one attempt per account of the body's `accounts`, taken together
 *   before any is tried (a batch that does not fit is refused whole); each account linked gives its attempt back.
 */
export type ThrottleKind =
  'public' | 'sign-in' | 'top-up' | 'wallet-sign-in' | 'wallet-sign-in-batch' | 'wallet-reauth';
const THROTTLE_KIND = 'seatlink:throttle';

/** The most attempts one batch is counted as: its schema's limit, however long a list a client sends. */
const MAX_BATCH_COST = 20;

interface AllowanceRule {
  allowance: AllowanceKind;
  /** Attempts the call is counted as, from its raw body (before validation: a malformed call counts too). */
  cost(body: unknown): number;
  /** Attempts its successful answer gives back. */
  givenBack(answer: unknown): number;
}

const field = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;

const ALLOWANCE_RULES: Record<'top-up' | 'wallet-sign-in' | 'wallet-sign-in-batch' | 'wallet-reauth', AllowanceRule> = {
  // Only a payment that succeeded is given back: a decline, a failure and a payment still waiting for 3-D Secure
  // (which tells a tester the card is live) keep counting.
  'top-up': { allowance: 'top-up', cost: () => 1, givenBack: (answer) => (field(answer, 'success') === true ? 1 : 0) },
  // An answer (not an error) is the account signed in and linked.
  'wallet-sign-in': { allowance: 'wallet-sign-in', cost: () => 1, givenBack: () => 1 },
  // Signing in again links nothing new: it always counts (given back, a loop of good re-authentications would spend
  // the provider's pace, which every user's syncs share).
  'wallet-reauth': { allowance: 'wallet-sign-in', cost: () => 1, givenBack: () => 0 },
  'wallet-sign-in-batch': {
    allowance: 'wallet-sign-in',
    cost: (body) => {
      const accounts = field(body, 'accounts');
      return Array.isArray(accounts) ? Math.min(Math.max(accounts.length, 1), MAX_BATCH_COST) : 1;
    },
    givenBack: (answer) => {
      const linked = field(answer, 'linked');
      return typeof linked === 'number' && Number.isInteger(linked) ? linked : 0;
    },
  },
};

/** Requests whose sign-in is past the account's count from anywhere (set by the guard, read by the sign-in route). */
const secondProof = new WeakSet<object>();

/** Whether this sign-in needs a second proof: the account's count from anywhere is spent (see ThrottleService). */
export function signInNeedsSecondProof(request: object): boolean {
  return secondProof.has(request);
}

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
    if (kind === 'sign-in') {
      const verdict = await this.throttle.consumeSignIn(signInAccount(request.body), request.ip);
      if (verdict === 'second-proof') secondProof.add(request);
    }
    return true;
  }
}

/**
 * Takes a signed-in user's attempts (per user and per IP) before the route runs, and gives back what its successful
 * answer says did not count. An interceptor, not a guard: it runs after the session guard (the user is known) and
 * inside the Idempotency-Key handling, so a replayed answer — which does nothing again — takes nothing. Validation
 * comes after it, so a malformed call counts as an attempt too.
 */
@Injectable()
export class AllowanceInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly throttle: ThrottleService,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const kind = this.reflector.getAllAndOverride<ThrottleKind | undefined>(THROTTLE_KIND, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (kind === undefined || kind === 'public' || kind === 'sign-in') return next.handle();
    const rule = ALLOWANCE_RULES[kind];
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: { id: string } }>();
    const taken = await this.throttle.takeAllowance(
      rule.allowance,
      { userId: request.user?.id ?? null, ip: request.ip },
      rule.cost(request.body),
    );
    const answers: Observable<unknown> = next.handle();
    return answers.pipe(
      mergeMap((answer) => from(this.throttle.giveBack(taken, rule.givenBack(answer)).then(() => answer))),
    );
  }
}

/** The account a sign-in is for, as the login schema will read it (trimmed, lower case). */
export function signInAccount(body: unknown): string {
  const email = (body as { email?: unknown } | null)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : '';
}

/** Limits the route (or every route of a controller) as `kind` says; see ThrottleKind. */
export const Throttled = (kind: ThrottleKind) =>
  kind === 'public' || kind === 'sign-in'
    ? applyDecorators(SetMetadata(THROTTLE_KIND, kind), UseGuards(ThrottledGuard))
    : applyDecorators(SetMetadata(THROTTLE_KIND, kind), UseInterceptors(AllowanceInterceptor));
