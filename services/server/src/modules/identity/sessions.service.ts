import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, gt, inArray, lt, lte, or } from 'drizzle-orm';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database, Executor } from '../../infra/db/database.js';
import type { User } from '@seatlink/contracts';
import { sessions } from './identity.schema.js';
import DataLoader from 'dataloader';
import { findSessionUsers, type SessionUser } from './read-models/users/users.queries.js';
import { clock } from '../../shared/clock.js';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface SessionInfo {
  userId: string;
  tokenHash: string;
}

/**
 * Sessions: a random 256-bit token in an HttpOnly cookie, stored only as its SHA-256.
 * A session ends after SESSION_IDLE_MINUTES without use or SESSION_ABSOLUTE_HOURS after login.
 */
@Injectable()
export class SessionsService {
  /**
   * Session reads of the requests that arrive together (read in one turn of the event loop) are one query: under
   * load a batch of requests costs one round trip to the database, not one each. Nothing is cached between batches,
   * so a logout, ban or password reset counts for the next request in every process.
   */
  private readonly lookups = new DataLoader<string, SessionUser | null>(
    async (tokenHashes) => {
      const now = clock.now();
      const found = await findSessionUsers(this.database.db, tokenHashes, now, new Date(now.getTime() - this.idleMs));
      return tokenHashes.map((hash) => found.get(hash) ?? null);
    },
    { cache: false, maxBatchSize: 50, batchScheduleFn: (run) => setImmediate(run) },
  );

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get idleMs() {
    return this.config.SESSION_IDLE_MINUTES * 60_000;
  }

  async create(userId: string, meta: { ip?: string; userAgent?: string }): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + this.config.SESSION_ABSOLUTE_HOURS * 3_600_000);
    await this.database.db.insert(sessions).values({
      tokenHash: hashToken(token),
      userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      ip: meta.ip ?? null,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
    });
    return { token, expiresAt };
  }

  /**
   * How stale a session's last use may be before a request writes it again: a minute, or a tenth of the idle timeout
   * when that is shorter. Most requests only read their session; the idle timeout can fire that much early at most.
   */
  get touchEveryMs() {
    return Math.min(60_000, this.idleMs / 10);
  }

  /**
   * The live session of a token, with its user as the users read model shows it (null while it does not yet); null
   * when unknown, idle too long or expired. One indexed read, shared with the requests that arrive with it; the
   * session's last use is written only when older than `touchEveryMs` (no write per request: no commit to wait for on
   * the request path).
   */
  async resolve(token: string | undefined): Promise<(SessionInfo & { user: User | null }) | null> {
    if (!token || token.length > 256) return null;
    const tokenHash = hashToken(token);
    const found = await this.lookups.load(tokenHash);
    if (!found) return null;
    const now = clock.now();
    if (now.getTime() - found.lastSeenAt.getTime() >= this.touchEveryMs) {
      // Only forward, so parallel requests (or processes) touching at once agree.
      await this.database.db
        .update(sessions)
        .set({ lastSeenAt: now })
        .where(and(eq(sessions.tokenHash, tokenHash), lt(sessions.lastSeenAt, now)));
    }
    return { userId: found.userId, tokenHash, user: found.user };
  }

  /** Ends the session of a token; answers its id (the token's hash) when there was one. */
  async end(token: string | undefined): Promise<string | null> {
    if (!token || token.length > 256) return null;
    const tokenHash = hashToken(token);
    const [row] = await this.database.db
      .delete(sessions)
      .where(eq(sessions.tokenHash, tokenHash))
      .returning({ tokenHash: sessions.tokenHash });
    return row?.tokenHash ?? null;
  }

  /** Which of these sessions are still live (not ended, idle too long or past their absolute end). Reads only. */
  async liveSessions(tokenHashes: readonly string[], now = clock.now()): Promise<Set<string>> {
    if (tokenHashes.length === 0) return new Set();
    const rows = await this.database.db
      .select({ tokenHash: sessions.tokenHash })
      .from(sessions)
      .where(
        and(
          inArray(sessions.tokenHash, [...tokenHashes]),
          gt(sessions.expiresAt, now),
          gt(sessions.lastSeenAt, new Date(now.getTime() - this.idleMs)),
        ),
      );
    return new Set(rows.map((r) => r.tokenHash));
  }

  /**
   * Ends every session of the user (only those begun at or before `begunBy`, when given), in `db` when given (a
   * reaction's transaction); answers how many there were (0: none, or another call ended them first).
   */
  async endAllFor(userId: string, options: { begunBy?: Date; db?: Executor } = {}): Promise<number> {
    const { begunBy, db = this.database.db } = options;
    const ended = await db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), begunBy ? lte(sessions.createdAt, begunBy) : undefined))
      .returning({ tokenHash: sessions.tokenHash });
    return ended.length;
  }

  /** The user's live sessions (not ended, idle too long or past their end), the most recently used first. */
  async liveFor(userId: string, now = clock.now()): Promise<Array<typeof sessions.$inferSelect>> {
    return this.database.db
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.userId, userId),
          gt(sessions.expiresAt, now),
          gt(sessions.lastSeenAt, new Date(now.getTime() - this.idleMs)),
        ),
      )
      .orderBy(desc(sessions.lastSeenAt));
  }

  /** Ends these sessions of the user; answers the ids (token hashes) of those this call ended. */
  async endOf(userId: string, tokenHashes: readonly string[]): Promise<string[]> {
    if (tokenHashes.length === 0) return [];
    const ended = await this.database.db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), inArray(sessions.tokenHash, [...tokenHashes])))
      .returning({ tokenHash: sessions.tokenHash });
    return ended.map((r) => r.tokenHash);
  }

  /** When the user of this session last proved it is them: its sign-in, or a confirmation since (a step-up). */
  async provenAt(tokenHash: string): Promise<Date | null> {
    const [row] = await this.database.db
      .select({ createdAt: sessions.createdAt, verifiedAt: sessions.verifiedAt })
      .from(sessions)
      .where(eq(sessions.tokenHash, tokenHash));
    if (!row) return null;
    return row.verifiedAt && row.verifiedAt > row.createdAt ? row.verifiedAt : row.createdAt;
  }

  /** The user of this session proved it is them now (a step-up). */
  async markProven(tokenHash: string, at = clock.now()): Promise<void> {
    await this.database.db.update(sessions).set({ verifiedAt: at }).where(eq(sessions.tokenHash, tokenHash));
  }

  /** Removes sessions that can no longer be used. */
  async purgeExpired(now = clock.now()): Promise<void> {
    await this.database.db
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, new Date(now.getTime() - this.idleMs))));
  }
}
