import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { DATABASE } from '../../infra/db/database.module.js';
import { REALTIME_PUBLISHER, type RealtimePublisher } from '../../infra/realtime/realtime.publisher.js';
import { startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
import { SessionPolicy } from './session-policy.js';
import { hashToken, SessionsService } from './sessions.service.js';
import { UserCommandMessage } from './user.command.js';

describe('the session policy', () => {
  let stack: TestStack;
  let database: Database;
  let policy: SessionPolicy;
  let sessions: SessionsService;
  let publisher: RealtimePublisher;

  beforeAll(async () => {
    stack = await startTestStack({ redis: false });
    database = stack.app.get<Database>(DATABASE);
    policy = stack.app.get(SessionPolicy);
    sessions = stack.app.get(SessionsService);
    publisher = stack.app.get<RealtimePublisher>(REALTIME_PUBLISHER);
  });
  afterAll(async () => stack?.close());
  afterEach(() => vi.restoreAllMocks());

  /** The real publisher (the socket.io gateway), counted. */
  const tells = () => ({
    users: vi.spyOn(publisher, 'disconnectUser'),
    sessions: vi.spyOn(publisher, 'disconnectSession'),
  });

  const signIn = async (userId: string) => (await sessions.create(userId, {})).token;
  const live = (tokens: string[]) => sessions.liveSessions(tokens.map(hashToken));

  it('admits a live session with its user, and an admin where an admin is needed', async () => {
    const user = await createVerifiedUser(stack.app);
    const admin = await createVerifiedUser(stack.app, { isAdmin: true });
    const token = await signIn(user.id);
    expect(await policy.authenticate(token)).toMatchObject({
      ok: true,
      user: { id: user.id, is_admin: false },
      sessionId: hashToken(token),
    });
    expect(await policy.authenticate(token, 'admin')).toEqual({ ok: false, refused: 'not-admin' });
    expect(await policy.authenticate(await signIn(admin.id), 'admin')).toMatchObject({
      ok: true,
      user: { id: admin.id },
    });
  });

  it("refuses no token as 'none', and an unknown, ended, idle or expired session as 'expired'", async () => {
    const { id } = await createVerifiedUser(stack.app);
    expect(await policy.authenticate(undefined)).toEqual({ ok: false, refused: 'none' });
    expect(await policy.authenticate('forged')).toEqual({ ok: false, refused: 'expired' });
    const ended = await signIn(id);
    await policy.endSession(ended);
    const idle = await signIn(id);
    const expired = await signIn(id);
    await database.db.execute(
      sql`update sessions set last_seen_at = now() - interval '2 days' where token_hash = ${hashToken(idle)}`,
    );
    await database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 second' where token_hash = ${hashToken(expired)}`,
    );
    for (const token of [ended, idle, expired]) {
      expect(await policy.authenticate(token)).toEqual({ ok: false, refused: 'expired' });
    }
  });

  it("refuses a banned user's live session, ends all their sessions and tells their sockets once", async () => {
    const { id } = await createVerifiedUser(stack.app);
    const admin = await createVerifiedUser(stack.app, { isAdmin: true });
    await stack.app
      .get(CommandBus)
      .execute(
        new UserCommandMessage(
          { type: 'ToggleBan', data: { userId: id, by: admin.id, now: new Date().toISOString() } },
          { actorId: admin.id },
        ),
      );
    await subscriptionsCaughtUp(stack.app);
    // Sessions the ban did not end (begun after it, as one read just before the ban's end would be).
    const tokens = [await signIn(id), await signIn(id)];
    const told = tells();
    expect(await policy.authenticate(tokens[0])).toEqual({ ok: false, refused: 'banned' });
    expect(await live(tokens)).toEqual(new Set());
    expect(told.users.mock.calls).toEqual([[id, 'banned']]);
    // Nothing left to end: nobody is told again.
    expect(await policy.authenticate(tokens[1])).toEqual({ ok: false, refused: 'expired' });
    expect(told.users).toHaveBeenCalledTimes(1);
  });

  it('tells the sockets once when two calls end the same sessions at once, and only after they are gone', async () => {
    const { id } = await createVerifiedUser(stack.app);
    const tokens = [await signIn(id), await signIn(id), await signIn(id)];
    const other = await signIn((await createVerifiedUser(stack.app)).id);
    // Deleting this user's sessions takes a moment, so both calls are under way together.
    const trigger = `test_slow_end_${randomUUID().replaceAll('-', '')}`;
    await database.db.execute(
      sql.raw(`create function ${trigger}() returns trigger language plpgsql
               as $$ begin perform pg_sleep(0.2); return old; end $$`),
    );
    await database.db.execute(
      sql.raw(`create trigger ${trigger} before delete on sessions for each row
               when (old.user_id = '${id}') execute function ${trigger}()`),
    );
    try {
      const told = tells();
      const liveWhenTold: Array<Promise<Set<string>>> = [];
      told.users.mockImplementation(() => void liveWhenTold.push(live(tokens)));
      const ended = await Promise.all([policy.endSessions(id, 'banned'), policy.endSessions(id, 'banned')]);
      expect(ended.sort()).toEqual([false, true]);
      expect(told.users.mock.calls).toEqual([[id, 'banned']]);
      expect(await Promise.all(liveWhenTold)).toEqual([new Set()]);
      // Another user's session is not theirs to end.
      expect(await live([other])).toEqual(new Set([hashToken(other)]));
    } finally {
      await database.db.execute(sql.raw(`drop trigger ${trigger} on sessions; drop function ${trigger}()`));
    }
  });

  it("ends, in a reaction's transaction, only the sessions begun by the event, and tells once it commits", async () => {
    const { id } = await createVerifiedUser(stack.app);
    const before = await signIn(id);
    await database.db.execute(
      sql`update sessions set created_at = now() - interval '1 minute' where token_hash = ${hashToken(before)}`,
    );
    const begunBy = new Date(Date.now() - 30_000);
    const after = await signIn(id);
    const told = tells();
    const afterCommit: Array<() => void | Promise<void>> = [];
    await database.db.transaction(async (tx) => {
      const ended = await policy.endSessions(id, 'password-changed', {
        begunBy,
        within: { tx, afterCommit: (work) => afterCommit.push(work) },
      });
      expect(ended).toBe(true);
      expect(told.users).not.toHaveBeenCalled();
    });
    for (const work of afterCommit) await work();
    expect(told.users.mock.calls).toEqual([[id, 'password-changed']]);
    expect(await live([before, after])).toEqual(new Set([hashToken(after)]));
  });

  it("ends one session at logout and closes that session's sockets, once", async () => {
    const { id } = await createVerifiedUser(stack.app);
    const [token, kept] = [await signIn(id), await signIn(id)];
    const told = tells();
    await policy.endSession(token);
    await policy.endSession(token);
    expect(told.sessions.mock.calls).toEqual([[hashToken(token), 'logout']]);
    expect(told.users).not.toHaveBeenCalled();
    expect(await live([token, kept])).toEqual(new Set([hashToken(kept)]));
  });
});
