import type { EndSessionsResponse, SessionsResponse } from '@seatlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { type ApiProcess, startApiProcess } from '../../testing/api-process.js';
import { signedInSocket } from '../../testing/link-holder.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('signed-in sessions: listed, signed out one by one or all but this one, across API processes', () => {
  let stack: TestStack;
  let second: ApiProcess;
  let database: Database;

  /** One user signed in three times: from a desktop (this one), an iPhone, and another desktop on the second process. */
  const threeSessions = async () => {
    const user = await createVerifiedUser(stack.app);
    const here = new ApiClient(stack.baseUrl);
    const phone = new ApiClient(stack.baseUrl);
    const elsewhere = new ApiClient(second.baseUrl);
    await here.request(
      'POST',
      '/v1/auth',
      { email: user.email, password: user.password, token: null },
      {
        headers: { 'user-agent': DESKTOP },
      },
    );
    await phone.request(
      'POST',
      '/v1/auth',
      { email: user.email, password: user.password, token: null },
      {
        headers: { 'user-agent': IPHONE },
      },
    );
    await elsewhere.login(user.email, user.password);
    return { user, here, phone, elsewhere };
  };
  const list = async (client: ApiClient) => {
    const res = await client.request('GET', '/v1/me/sessions');
    expect(res.status).toBe(200);
    return (res.body as unknown as SessionsResponse).sessions;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    second = await startApiProcess(stack.config);
    database = stack.app.get<Database>(DATABASE);
  }, 60_000);
  afterAll(async () => {
    await second?.stop();
    await stack?.close();
  });

  it('lists each session with its device, this one first and marked, and never its token or hash', async () => {
    const { here } = await threeSessions();
    const sessions = await list(here);
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toMatchObject({ current: true, browser: 'Chrome 131', os: 'Linux' });
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.find((s) => s.os?.startsWith('iOS'))).toMatchObject({
      os: 'iOS 18.1',
      browser: 'Mobile Safari 18',
      device: 'Apple iPhone',
    });
    for (const s of sessions) {
      expect(s.id).toMatch(/^[0-9a-f]{32}$/);
      expect(s.ip).toBeTruthy();
    }
    const hashes = await database.query<{ token_hash: string }>('select token_hash from sessions');
    for (const s of sessions) expect(hashes.map((h) => h.token_hash).some((h) => h.startsWith(s.id))).toBe(false);
  });

  it('signs one session out: its calls are refused and its socket, on the other process, is closed at once', async () => {
    const { here, elsewhere } = await threeSessions();
    const socket = await signedInSocket(second.baseUrl, elsewhere.sessionCookie);
    try {
      const ended = new Promise<string>((resolve) =>
        socket.on('session.ended', (p: { reason: string }) => resolve(p.reason)),
      );
      const closed = new Promise<void>((resolve) => socket.on('disconnect', () => resolve()));
      const theirs = (await list(elsewhere)).find((s) => s.current)!;
      // Five presses at once: one signs it out.
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => here.request('DELETE', `/v1/me/sessions/${theirs.id}`)),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404]);
      expect(answers.find((a) => a.status === 200)!.body).toEqual({ message: 'Signed out of that session', ended: 1 });
      expect(await ended).toBe('signed-out');
      await closed;
      expect((await elsewhere.request('GET', '/v1/me')).status).toBe(401);
      expect((await here.request('GET', '/v1/me')).status).toBe(200);
      const [recorded] = await database.query<{ n: number }>(
        `select count(*)::int as n from events where stream_id = $1 and type = 'SessionsSignedOut'`,
        [`user-${(await here.request('GET', '/v1/me')).body.id as string}`],
      );
      expect(recorded!.n).toBe(1);
    } finally {
      socket.disconnect();
    }
  });

  it('tells the owner of a sign-in from a device the account had not been used on, once per device', async () => {
    const { user } = await threeSessions();
    await subscriptionsCaughtUp(stack.app);
    const told = async () =>
      (
        await database.query<{ n: number }>(
          `select count(*)::int as n from mail_outbox where "to" = $1 and subject = 'New sign-in to your Seatlink account'`,
          [user.email],
        )
      )[0]!.n;
    // Desktop Chrome first (no notice: every device is new at the first sign-in), then an iPhone, then node's fetch.
    expect(await told()).toBe(2);
    const again = new ApiClient(stack.baseUrl);
    await again.request(
      'POST',
      '/v1/auth',
      { email: user.email, password: user.password, token: null },
      {
        headers: { 'user-agent': IPHONE.replace('18_1', '18_2') },
      },
    );
    await subscriptionsCaughtUp(stack.app);
    expect(await told()).toBe(2);
  });

  it('signs every other session out, and this one stays', async () => {
    const { here, phone, elsewhere } = await threeSessions();
    const res = await here.request('DELETE', '/v1/me/sessions');
    expect(res.status).toBe(200);
    expect(res.body as unknown as EndSessionsResponse).toEqual({ message: 'Signed out of 2 other sessions', ended: 2 });
    expect((await phone.request('GET', '/v1/me')).status).toBe(401);
    expect((await elsewhere.request('GET', '/v1/me')).status).toBe(401);
    expect((await list(here)).map((s) => s.current)).toEqual([true]);
    expect((await here.request('DELETE', '/v1/me/sessions')).body).toEqual({
      message: 'Signed out of 0 other sessions',
      ended: 0,
    });
  });

  it('refuses another user’s session, an unknown one and a malformed id, and strangers', async () => {
    const mine = await threeSessions();
    const theirs = await threeSessions();
    const id = (await list(theirs.here)).find((s) => !s.current)!.id;
    const refused = await mine.here.request('DELETE', `/v1/me/sessions/${id}`);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ message: 'Session not found' });
    expect((await list(theirs.here)).some((s) => s.id === id)).toBe(true);
    for (const bad of ['x', '0'.repeat(31), `${'a'.repeat(32)}%00`, 'A'.repeat(32), '%E2%80%AE'.repeat(8)]) {
      const res = await mine.here.request('DELETE', `/v1/me/sessions/${bad}`);
      expect([400, 404], bad).toContain(res.status);
      expect(typeof res.body.message).toBe('string');
    }
    expect((await mine.here.request('DELETE', `/v1/me/sessions/${'0'.repeat(32)}`)).status).toBe(404);
    const stranger = new ApiClient(stack.baseUrl);
    expect((await stranger.request('GET', '/v1/me/sessions')).status).toBe(401);
    expect((await stranger.request('DELETE', '/v1/me/sessions')).status).toBe(401);
  });
});
