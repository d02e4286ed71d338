import { and, count, desc, eq, gt, gte, sql } from 'drizzle-orm';
import { DEFAULT_DISTRIBUTION_COST, type User } from '@seatlink/contracts';
import type { Db, Executor } from '../../../../infra/db/database.js';
import { creditBalances } from '../../../credits/index.js';
import { sessions, users } from '../../identity.schema.js';

const userView = {
  id: users.id,
  email: users.email,
  emailVerified: users.emailVerified,
  isAdmin: users.isAdmin,
  isBanned: users.isBanned,
  createdAt: users.createdAt,
  lastLoggedInAt: users.lastLoggedInAt,
  distributionCost: users.distributionCost,
  firstName: users.firstName,
  lastName: users.lastName,
  balance: sql<number>`coalesce(${creditBalances.balance}, 0)`,
};

const selectUsers = (db: Executor) =>
  db.select(userView).from(users).leftJoin(creditBalances, eq(creditBalances.userId, users.id));

type UserViewRow = Awaited<ReturnType<typeof selectUsers>>[number];

/** The user shape (docs/reference.md "User"). */
export function toUser(row: UserViewRow): User {
  return {
    id: row.id,
    email: row.email,
    email_verified: row.emailVerified,
    is_admin: row.isAdmin,
    is_banned: row.isBanned,
    created_at: new Date(row.createdAt).toISOString(),
    last_logged_in_at: row.lastLoggedInAt ? new Date(row.lastLoggedInAt).toISOString() : null,
    balance: Number(row.balance),
    distribution_cost: row.distributionCost ?? DEFAULT_DISTRIBUTION_COST,
    first_name: row.firstName,
    last_name: row.lastName,
  };
}

/**
 * The live sessions among these tokens' hashes, each with its user, in one indexed read, prepared once per database
 * (the request path of every signed-in call: concurrent requests share the read). `user` is null when the users read
 * model does not show the user yet. Unknown, expired and idle sessions are absent from the answer.
 */
const sessionUserQueries = new WeakMap<Db, ReturnType<typeof prepareSessionUsers>>();
const prepareSessionUsers = (db: Db) =>
  db
    .select({
      ...userView,
      tokenHash: sessions.tokenHash,
      sessionUserId: sessions.userId,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .leftJoin(creditBalances, eq(creditBalances.userId, sessions.userId))
    .where(
      and(
        sql`${sessions.tokenHash} = any(${sql.placeholder('tokenHashes')}::text[])`,
        gt(sessions.expiresAt, sql`${sql.placeholder('now')}::timestamptz`),
        gt(sessions.lastSeenAt, sql`${sql.placeholder('idleSince')}::timestamptz`),
      ),
    )
    .prepare('session_users');

export interface SessionUser {
  userId: string;
  lastSeenAt: Date;
  user: User | null;
}

export async function findSessionUsers(
  db: Db,
  tokenHashes: readonly string[],
  now: Date,
  idleSince: Date,
): Promise<Map<string, SessionUser>> {
  let query = sessionUserQueries.get(db);
  if (!query) sessionUserQueries.set(db, (query = prepareSessionUsers(db)));
  const rows = await query.execute({
    tokenHashes: [...tokenHashes],
    now: now.toISOString(),
    idleSince: idleSince.toISOString(),
  });
  const found = new Map<string, SessionUser>();
  for (const { tokenHash, sessionUserId, lastSeenAt, ...view } of rows) {
    found.set(tokenHash, {
      userId: sessionUserId,
      lastSeenAt: new Date(lastSeenAt),
      user: view.id === null ? null : toUser(view as UserViewRow),
    });
  }
  return found;
}

export async function findUserById(db: Executor, id: string): Promise<User | null> {
  const [row] = await selectUsers(db).where(eq(users.id, id));
  return row ? toUser(row) : null;
}

export interface Credentials {
  id: string;
  passwordHash: string;
  emailVerified: boolean;
  isBanned: boolean;
}

export async function findCredentialsByEmail(db: Executor, email: string): Promise<Credentials | null> {
  const [row] = await db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      emailVerified: users.emailVerified,
      isBanned: users.isBanned,
    })
    .from(users)
    .where(eq(users.email, email.toLowerCase()));
  return row ?? null;
}

export async function listUsers(
  db: Executor,
  page: number,
  limit: number,
  now: Date,
): Promise<{ users: User[]; total: number; newLast30Days: number }> {
  const rows = await selectUsers(db)
    .orderBy(desc(users.createdAt), users.id)
    .limit(limit)
    .offset((page - 1) * limit);
  const since = new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000);
  const [totals] = await db
    .select({
      total: count(),
      recent: sql<number>`count(*) filter (where ${gte(users.createdAt, since)})`,
    })
    .from(users);
  return {
    users: rows.map((r) => toUser(r)),
    total: Number(totals?.total ?? 0),
    newLast30Days: Number(totals?.recent ?? 0),
  };
}
