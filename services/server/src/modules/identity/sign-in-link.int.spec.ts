import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { IDENTITY_MESSAGES, type User } from '@seatlink/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { testEnv } from '../../testing/test-database.js';
import { TestSmtpServer } from '../../testing/test-smtp.js';
import { createVerifiedUser } from '../../testing/users.js';
import { PasswordHasher } from './password-hasher.js';
import { UserCommandMessage } from './user.command.js';
import { userStream } from './user.events.js';

const LINK_SENT = { message: IDENTITY_MESSAGES.signInLinkSent, code: 'SIGN_IN_LINK_SENT' };
const SUBJECT = /Your sign-in link/;

/**
 * The reviewers' scenario: 6 addresses × 5 wrong passwords spend an account's count from anywhere (30). The owner, with
 * the right password from a fresh address, gets in through a one-time link e-mailed to the account, not a 429; the
 * attacker learns nothing and gets no session.
 */
describe.each([...(testEnv.redisUrl ? [{ store: 'Redis', redis: true }] : []), { store: 'memory', redis: false }])(
  'an owner is never locked out: past the account count, a sign-in link (counted in $store)',
  ({ redis }) => {
    let stack: TestStack;
    let smtp: TestSmtpServer;
    let database: Database;
    let ipBase = 0;

    beforeAll(async () => {
      smtp = new TestSmtpServer();
      const smtpUrl = await smtp.start();
      // The product's own defaults for sign-in (5 per account and IP, 30 per account, 50 per IP); TRUST_PROXY lets the
      // test speak from many addresses through X-Forwarded-For.
      stack = await startTestStack({
        redis,
        env: {
          SMTP_URL: smtpUrl,
          TRUST_PROXY: 'true',
          THROTTLE_LOGIN_ACCOUNT_IP: '5',
          THROTTLE_LOGIN_ACCOUNT: '30',
          THROTTLE_LOGIN_IP: '50',
        },
      });
      database = stack.app.get<Database>(DATABASE);
    });
    afterAll(async () => {
      await stack?.close();
      await smtp?.stop();
    });

    /** A fresh address for each call site. */
    const freshIp = () => {
      ipBase++;
      return `10.${redis ? 1 : 2}.${Math.floor(ipBase / 250)}.${(ipBase % 250) + 1}`;
    };
    const signIn = (client: ApiClient, email: string, password: string, ip: string) =>
      client.request('POST', '/v1/auth', { email, password, token: null }, { headers: { 'x-forwarded-for': ip } });
    const redeem = (client: ApiClient, token: unknown, ip = freshIp()) =>
      client.request('POST', '/v1/auth/sign-in-link', { token }, { headers: { 'x-forwarded-for': ip } });
    const mailsTo = (email: string) => smtp.messages.filter((m) => m.to === email);

    /** 6 addresses × 5 wrong passwords: each answered 401 Invalid, the account's count of 30 spent. */
    async function attack(email: string) {
      const attackers = Array.from({ length: 6 }, freshIp);
      for (const ip of attackers) {
        for (let i = 0; i < 5; i++) {
          const res = await signIn(new ApiClient(stack.baseUrl), email, `Wrong!pass${i}`, ip);
          expect(res.status).toBe(401);
          expect(res.body.code).toBe('INVALID_CREDENTIALS');
        }
      }
      return attackers;
    }

    /** A user under attack whose owner has asked for a link with the right password; answers the link's token. */
    async function linkAfterAttack() {
      const user = await createVerifiedUser(stack.app);
      await attack(user.email);
      const owner = new ApiClient(stack.baseUrl);
      const res = await signIn(owner, user.email, user.password, freshIp());
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject(LINK_SENT);
      const token = TestSmtpServer.token(await smtp.waitFor(user.email, SUBJECT));
      return { user, token };
    }

    it('gets the owner in with the e-mailed link after 6 IPs × 5 wrong passwords; the link works once', async () => {
      const user = await createVerifiedUser(stack.app);
      const attackers = await attack(user.email);

      const owner = new ApiClient(stack.baseUrl);
      const ownerIp = freshIp();
      const asked = await signIn(owner, user.email, user.password, ownerIp);
      expect(asked.status).toBe(401);
      expect(asked.body).toMatchObject(LINK_SENT);
      expect(asked.setCookie).toEqual([]);
      expect((await owner.request('GET', '/v1/me')).status).toBe(401);

      const mail = await smtp.waitFor(user.email, SUBJECT);
      expect(mail.text).toContain('http://localhost:3000/sign-in-link?token=');
      const token = TestSmtpServer.token(mail);
      const signedIn = await redeem(owner, token, ownerIp);
      expect(signedIn.status).toBe(200);
      expect((signedIn.body.user as User).email).toBe(user.email);
      expect((signedIn.body.user as User).last_logged_in_at).not.toBeNull();
      expect(signedIn.setCookie.some((c) => c.startsWith('seatlink_session=') && /HttpOnly/i.test(c))).toBe(true);
      const me = await owner.request('GET', '/v1/me');
      expect(me.status).toBe(200);
      expect((me.body as unknown as User).email).toBe(user.email);

      // Single use: the same link again signs nobody in.
      const again = await redeem(new ApiClient(stack.baseUrl), token);
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ message: IDENTITY_MESSAGES.signInLinkInvalid, code: 'SIGN_IN_LINK_INVALID' });
      expect(again.setCookie).toEqual([]);

      // The per account and IP limit still holds against the attackers' own addresses, right password or not.
      for (const ip of attackers.slice(0, 2)) {
        const res = await signIn(new ApiClient(stack.baseUrl), user.email, user.password, ip);
        expect(res.status).toBe(429);
        expect(res.body.code).toBe('RATE_LIMITED');
      }
      // The address the owner proved themselves from signs in with the password alone; any other still needs a link.
      expect((await signIn(new ApiClient(stack.baseUrl), user.email, user.password, ownerIp)).status).toBe(200);
      const elsewhere = await signIn(new ApiClient(stack.baseUrl), user.email, user.password, freshIp());
      expect(elsewhere.body).toMatchObject(LINK_SENT);
    });

    it('tells the attacker nothing: a wrong password and an unknown address past the count get the same answer', async () => {
      const user = await createVerifiedUser(stack.app);
      await attack(user.email);
      const ghost = `ghost-${randomUUID().slice(0, 8)}@example.com`;
      await attack(ghost);

      // The wrong password and the unknown address first: were either to ask for a link, theirs would be the one sent.
      const wrong = await signIn(new ApiClient(stack.baseUrl), user.email, 'Wrong!passX', freshIp());
      const unknown = await signIn(new ApiClient(stack.baseUrl), ghost, user.password, freshIp());
      const rightIp = freshIp();
      const right = await signIn(new ApiClient(stack.baseUrl), user.email, user.password, rightIp);
      for (const res of [right, wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ ...LINK_SENT, statusCode: 401 });
        expect(res.setCookie).toEqual([]);
      }
      await smtp.waitFor(user.email, SUBJECT);
      expect(mailsTo(ghost)).toEqual([]);
      expect(mailsTo(user.email)).toHaveLength(1);
      // The one link asked for is the right password's (the e-mail reaction mailed it from this event).
      const { events } = await stack.app.get<EventStore>(EVENT_STORE).readStream(userStream(user.id));
      const requested = events.filter((e) => e.type === 'SignInLinkRequested');
      expect(requested).toHaveLength(1);
      expect(requested[0]!.metadata.ip).toBe(rightIp);
      expect(events.filter((e) => e.type === 'UserLoggedIn')).toEqual([]);
    });

    it('lets one of 12 parallel right passwords at the edge of the count sign in; the others need the link', async () => {
      const user = await createVerifiedUser(stack.app);
      // 29 of 30 spent.
      for (let i = 0; i < 29; i++) {
        expect(
          (
            await signIn(
              new ApiClient(stack.baseUrl),
              user.email,
              'Wrong!pass1',
              `172.${redis ? 16 : 17}.${Math.floor(i / 5)}.1`,
            )
          ).status,
        ).toBe(401);
      }
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => signIn(new ApiClient(stack.baseUrl), user.email, user.password, freshIp())),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      const asked = answers.filter((a) => a.status === 401);
      expect(asked).toHaveLength(11);
      for (const a of asked) expect(a.body).toMatchObject(LINK_SENT);
    });

    it('refuses a link past its 15 minutes', async () => {
      const { token } = await linkAfterAttack();
      await database.db.execute(
        sql`update auth_tokens set expires_at = now() - interval '1 second' where kind = 'sign_in' and used_at is null`,
      );
      const res = await redeem(new ApiClient(stack.baseUrl), token);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('SIGN_IN_LINK_INVALID');
      expect(res.setCookie).toEqual([]);
    });

    it('signs in once for 20 parallel presses of the same link', async () => {
      const { user, token } = await linkAfterAttack();
      const answers = await Promise.all(Array.from({ length: 20 }, () => redeem(new ApiClient(stack.baseUrl), token)));
      const ok = answers.filter((a) => a.status === 200);
      expect(ok).toHaveLength(1);
      expect((ok[0]!.body.user as User).email).toBe(user.email);
      expect(answers.filter((a) => a.status === 400)).toHaveLength(19);
      const sessions = await database.query<{ n: number }>(
        'select count(*)::int as n from sessions where user_id = $1',
        [user.id],
      );
      expect(sessions[0]!.n).toBe(1);
    });

    it('voids a link when the password changes after it was sent', async () => {
      const { user, token } = await linkAfterAttack();
      const passwordHash = await stack.app.get(PasswordHasher).hash('Chang3d!pass');
      await stack.app
        .get(CommandBus)
        .execute(
          new UserCommandMessage(
            { type: 'ChangePassword', data: { userId: user.id, passwordHash, now: new Date().toISOString() } },
            { actorId: user.id },
          ),
        );
      const res = await redeem(new ApiClient(stack.baseUrl), token);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('SIGN_IN_LINK_INVALID');
      expect(res.setCookie).toEqual([]);
    });

    it.each([
      ['no token', undefined],
      ['an empty token', ''],
      ['a NUL', 'abc\u0000def'],
      ['a bidi override', 'abc\u202edef'],
      ['a lone surrogate', 'abc\ud800'],
      ['a huge token', 'a'.repeat(100_000)],
      ['a number', 12345],
      ['a nested object', { a: { b: { c: [] } } }],
      ['a token never issued', 'A'.repeat(43)],
    ])('answers %s with 400 and a message, signing nobody in', async (_label, token) => {
      const res = await redeem(new ApiClient(stack.baseUrl), token);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
      expect(res.body.message!.length).toBeGreaterThan(0);
      expect(res.setCookie).toEqual([]);
    });
  },
);
