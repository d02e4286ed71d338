import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { MFA_TOKEN_TTL_MS } from '@seatlink/contracts';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database, Executor } from '../../infra/db/database.js';
import { authTokens } from './identity.schema.js';
import { hashToken } from './sessions.service.js';
import { clock } from '../../shared/clock.js';

export type TokenKind = 'verify_email' | 'reset_password' | 'sign_in' | 'mfa';

/**
 * How long an e-mailed link works: verification 24 hours, password reset 1 hour, sign-in 15 minutes; a sign-in waits
 * 5 minutes for its second factor.
 */
export const TOKEN_TTL_MS: Record<TokenKind, number> = {
  verify_email: 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
  sign_in: 15 * 60 * 1000,
  mfa: MFA_TOKEN_TTL_MS,
};

/** Random single-use tokens for e-mailed links, stored only as their SHA-256. */
@Injectable()
export class AuthTokensService {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /**
   * A new token; earlier unused tokens of the same kind for the user stop working. Inside `executor` when given (a
   * reaction's transaction), else in a transaction of its own.
   */
  async issue(userId: string, kind: TokenKind, now = clock.now(), executor?: Executor): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const write = async (tx: Executor) => {
      await tx
        .update(authTokens)
        .set({ usedAt: now })
        .where(and(eq(authTokens.userId, userId), eq(authTokens.kind, kind), isNull(authTokens.usedAt)));
      await tx.insert(authTokens).values({
        tokenHash: hashToken(token),
        kind,
        userId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[kind]),
      });
    };
    if (executor) await write(executor);
    else await this.database.db.transaction(write);
    return token;
  }

  /** The user of a token that is still good, without using it up. */
  async peek(token: string, kind: TokenKind, now = clock.now()): Promise<string | null> {
    const [row] = await this.database.db
      .select({ userId: authTokens.userId })
      .from(authTokens)
      .where(this.usable(token, kind, now));
    return row?.userId ?? null;
  }

  /** Uses the token up and answers its user; null when unknown, used or expired. Atomic: one caller wins. */
  async consume(token: string, kind: TokenKind, now = clock.now()): Promise<string | null> {
    return (await this.redeem(token, kind, now))?.userId ?? null;
  }

  /** As consume, with when the token was issued (a later password change voids a sign-in link). */
  async redeem(token: string, kind: TokenKind, now = clock.now()): Promise<{ userId: string; issuedAt: Date } | null> {
    const [row] = await this.database.db
      .update(authTokens)
      .set({ usedAt: now })
      .where(this.usable(token, kind, now))
      .returning({ userId: authTokens.userId, issuedAt: authTokens.createdAt });
    return row ?? null;
  }

  private usable(token: string, kind: TokenKind, now: Date) {
    return and(
      eq(authTokens.tokenHash, hashToken(token)),
      eq(authTokens.kind, kind),
      isNull(authTokens.usedAt),
      gt(authTokens.expiresAt, now),
    );
  }
}
