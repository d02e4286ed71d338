import { ForbiddenException, Injectable, type OnModuleInit, UnauthorizedException } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { API_KEY_MESSAGES, type ApiKeyScope, type User } from '@seatlink/contracts';
import type { FastifyReply } from 'fastify';
import { API_KEY_GATE, type ApiKeyGate } from '../../infra/http/api-key-gate.port.js';
import { markApiKeyRequest } from '../../infra/logging/app-logger.js';
import {
  RateLimitedException,
  type RateLimitState,
  THROTTLE_MESSAGES,
  ThrottleService,
} from '../../infra/throttle/throttle.service.js';
import { UserAccounts } from './user-accounts.service.js';

/** The token of `Authorization: Bearer <token>`; undefined when the header names no bearer. */
export function bearerOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^Bearer[ ]+(\S+)\s*$/i.exec(value) : null;
  return match?.[1];
}

/**
 * A call made with an API key instead of a session: the key must be live and its user not banned, the route open to
 * keys (`@ApiKeyScoped`, never an admin route) with a scope the key has, and the key within its count of calls
 * (`api-key`, answered in RateLimit-* headers on every call, 429 with Retry-After past it).
 */
@Injectable()
export class ApiKeyAdmission implements OnModuleInit {
  private gate: ApiKeyGate | null = null;

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly accounts: UserAccounts,
    private readonly throttle: ThrottleService,
  ) {}

  onModuleInit() {
    this.gate = this.moduleRef.get<ApiKeyGate>(API_KEY_GATE, { strict: false });
  }

  async admit(
    token: string,
    request: { ip: string },
    reply: FastifyReply,
    route: { scope: ApiKeyScope | undefined; adminOnly: boolean },
  ): Promise<{ user: User; key: { id: string; name: string } }> {
    const key = await this.gate!.find(token);
    if (!key) {
      // Guessing keys costs the caller's IP its count of visitor calls.
      await this.throttle.consume('public-ip', request.ip, THROTTLE_MESSAGES.public);
      throw new UnauthorizedException({ message: API_KEY_MESSAGES.invalid, code: 'API_KEY_INVALID' });
    }
    // A route open to keys (it names a scope) takes the key's scope as the fresh proof a session would give: keys are
    // made behind one (POST /v1/me/api-keys).
    if (!route.scope || route.adminOnly) {
      throw new ForbiddenException({ message: API_KEY_MESSAGES.notForKeys, code: 'API_KEY_NOT_ALLOWED' });
    }
    if (!key.scopes.includes(route.scope)) {
      throw new ForbiddenException({
        message: API_KEY_MESSAGES.scope.replace('{scope}', route.scope),
        code: 'API_KEY_SCOPE',
      });
    }
    const user = await this.accounts.getUser(key.userId);
    if (!user) throw new UnauthorizedException({ message: API_KEY_MESSAGES.invalid, code: 'API_KEY_INVALID' });
    if (user.is_banned) throw new ForbiddenException('Your account has been banned');
    try {
      rateLimitHeaders(reply, await this.throttle.consumeMeasured('api-key', key.keyId, THROTTLE_MESSAGES.apiKey));
    } catch (err) {
      if (err instanceof RateLimitedException && err.rateLimit) rateLimitHeaders(reply, err.rateLimit);
      throw err;
    }
    await this.gate!.noteUse(key.keyId, request.ip);
    markApiKeyRequest(key.keyId, key.name);
    // A key acts as the user, never as an admin (an admin's key reads no one else's links).
    return { user: { ...user, is_admin: false }, key: { id: key.keyId, name: key.name } };
  }
}

function rateLimitHeaders(reply: FastifyReply, state: RateLimitState) {
  void reply.header('RateLimit-Limit', String(state.limit));
  void reply.header('RateLimit-Remaining', String(state.remaining));
  void reply.header('RateLimit-Reset', String(state.resetSeconds));
}
