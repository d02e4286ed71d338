import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_MESSAGES, type InviteCode, type User } from '@seatlink/contracts';
import { type Database, queryRows } from '../../infra/db/database.js';
import { DATABASE } from '../../infra/db/database.module.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { TestSmtpServer } from '../../testing/test-smtp.js';
import { emailClaimStream, userStream } from './user.events.js';

const tomorrow = () => new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);
const STRONG = 'Str0ng!pass';

describe('registration, verification and password reset, with the e-mails read from a real SMTP server', () => {
  let stack: TestStack;
  let smtp: TestSmtpServer;
  let admin: ApiClient;
  let database: Database;

  beforeAll(async () => {
    smtp = new TestSmtpServer();
    const smtpUrl = await smtp.start();
    stack = await startTestStack({ env: { SMTP_URL: smtpUrl } });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
  });
  afterAll(async () => {
    await stack?.close();
    await smtp?.stop();
  });

  async function newInvite(maxUses = 10): Promise<InviteCode> {
    const res = await admin.request('POST', '/v1/admin/invites', { max_uses: maxUses, expires_at: tomorrow() });
    expect(res.status).toBe(201);
    return res.body.invite_code as InviteCode;
  }

  const registration = (email: string, code: string, password = STRONG) => ({
    email,
    first_name: 'Nia',
    last_name: 'Reed',
    password,
    invite_code: code,
    token: null,
  });

  it('registers with an invite code, refuses sign-in until the e-mailed link verifies the address', async () => {
    const invite = await newInvite();
    const visitor = new ApiClient(stack.baseUrl);
    const res = await visitor.request('POST', '/v1/auth/register', registration('nia@example.com', invite.code));
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(IDENTITY_MESSAGES.registered);

    const early = await visitor.login('nia@example.com', STRONG);
    expect(early.status).toBe(403);
    expect(early.body.code).toBe('EMAIL_NOT_VERIFIED');

    const mail = await smtp.waitFor('nia@example.com', /Verify your email/);
    expect(mail.text).toContain('http://localhost:3000/verify-email?token=');
    const token = TestSmtpServer.token(mail);
    const verified = await visitor.request('POST', '/v1/auth/verify-email', { token });
    expect(verified.status).toBe(200);
    expect(verified.body.message).toBe(IDENTITY_MESSAGES.emailVerified);

    // Single use: the same link again is refused, with the error in field `error`.
    const again = await visitor.request('POST', '/v1/auth/verify-email', { token });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(IDENTITY_MESSAGES.verificationInvalid);

    const login = await visitor.login('nia@example.com', STRONG);
    expect(login.status).toBe(200);
    expect((login.body.user as User).email_verified).toBe(true);

    const codes = (await admin.request('GET', '/v1/admin/invites')).body.invite_codes as InviteCode[];
    expect(codes.find((c) => c.code === invite.code)?.used).toBe(1);
  });

  it('resends a verification link (the old one stops working) and answers the same for an unknown address', async () => {
    const invite = await newInvite();
    const visitor = new ApiClient(stack.baseUrl);
    await visitor.request('POST', '/v1/auth/register', registration('omar@example.com', invite.code));
    const first = TestSmtpServer.token(await smtp.waitFor('omar@example.com', /Verify your email/));
    const before = smtp.messages.length;

    const unknown = await visitor.request('POST', '/v1/auth/resend-verification', { email: 'ghost@example.com' });
    const known = await visitor.request('POST', '/v1/auth/resend-verification', { email: 'omar@example.com' });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);

    await expect.poll(() => smtp.messages.length).toBe(before + 1);
    const second = TestSmtpServer.token(await smtp.waitFor('omar@example.com', /Verify your email/));
    expect(second).not.toBe(first);
    expect((await visitor.request('POST', '/v1/auth/verify-email', { token: first })).status).toBe(400);
    expect((await visitor.request('POST', '/v1/auth/verify-email', { token: second })).status).toBe(200);
  });

  it('refuses a verification link past its 24 hours', async () => {
    const invite = await newInvite();
    const visitor = new ApiClient(stack.baseUrl);
    await visitor.request('POST', '/v1/auth/register', registration('late@example.com', invite.code));
    const token = TestSmtpServer.token(await smtp.waitFor('late@example.com', /Verify your email/));
    await database.db.execute(
      sql`update auth_tokens set expires_at = now() - interval '1 minute' where kind = 'verify_email' and used_at is null`,
    );
    const res = await visitor.request('POST', '/v1/auth/verify-email', { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(IDENTITY_MESSAGES.verificationInvalid);
  });

  it.each([
    ['an unknown code', 'NOSUCHCODE', 'Invalid invite code'],
    ['a disabled code', 'disabled', 'This invite code has been disabled'],
    ['a used-up code', 'used-up', 'This invite code has reached its maximum number of uses'],
  ])('refuses registration with %s, and writes no user', async (_label, kind, message) => {
    let code = kind;
    if (kind === 'disabled') {
      code = (await newInvite()).code;
      await admin.request('POST', `/v1/admin/invites/${code}/disable`);
    } else if (kind === 'used-up') {
      code = (await newInvite(1)).code;
      const first = await new ApiClient(stack.baseUrl).request(
        'POST',
        '/v1/auth/register',
        registration(`first-${Date.now()}@example.com`, code),
      );
      expect(first.status).toBe(201);
    }
    const email = `refused-${kind}-${Date.now()}@example.com`;
    const res = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/register', registration(email, code));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    const rows = await queryRows(database.db, sql`select id from users where email = ${email}`);
    expect(rows).toEqual([]);
  });

  /** The event types on a stream, in order. */
  const streamTypes = async (streamId: string) =>
    (await stack.app.get<EventStore>(EVENT_STORE).readStream(streamId)).events.map((e) => e.type);
  const inviteUsed = async (code: string) =>
    ((await admin.request('GET', '/v1/admin/invites')).body.invite_codes as InviteCode[]).find((c) => c.code === code)
      ?.used;

  it('answers a taken address exactly as a new one, registers and changes nothing, and tells the owner', async () => {
    const invite = await newInvite(5);
    const owner = (await admin.request('GET', '/v1/admin/users?limit=100')).body.users as User[];
    const ownerId = owner.find((u) => u.email === 'user@seatlink.test')!.id;
    const userEventsBefore = await streamTypes(userStream(ownerId));
    const claimBefore = await streamTypes(emailClaimStream('user@seatlink.test'));
    const rowBefore = await queryRows(database.db, sql`select * from users where email = 'user@seatlink.test'`);

    const fresh = `fresh-${Date.now()}@example.com`;
    const newOne = await new ApiClient(stack.baseUrl).request(
      'POST',
      '/v1/auth/register',
      registration(fresh, invite.code),
    );
    // Written as the visitor likes: the address is the account's however it is cased.
    const taken = await new ApiClient(stack.baseUrl).request(
      'POST',
      '/v1/auth/register',
      registration(' User@Seatlink.TEST', invite.code, 'Oth3r!pass'),
    );
    expect(newOne.status).toBe(201);
    expect(taken.status).toBe(newOne.status);
    expect(taken.body).toEqual(newOne.body);
    expect(taken.body).toEqual({ message: IDENTITY_MESSAGES.registered });
    expect(taken.setCookie).toEqual([]);

    // The owner is told, with the way to sign in (and to reset the password from there).
    const mail = await smtp.waitFor('user@seatlink.test', /Someone tried to register with your email address/);
    expect(mail.text).toContain('http://localhost:3000/login');
    expect(mail.text).toContain('Forgot your password');
    expect(smtp.messages.filter((m) => m.to === 'user@seatlink.test' && /Verify/.test(m.subject))).toEqual([]);

    // A use is spent by each, as by any registration: the uses left tell nobody whether an address is someone's.
    await expect.poll(() => inviteUsed(invite.code)).toBe(2);
    // Nothing of the account changed: its row, its password, its claim; its stream only gained the notice.
    await subscriptionsCaughtUp(stack.app);
    expect(await queryRows(database.db, sql`select * from users where email = 'user@seatlink.test'`)).toEqual(
      rowBefore,
    );
    expect(await streamTypes(emailClaimStream('user@seatlink.test'))).toEqual(claimBefore);
    expect(await streamTypes(userStream(ownerId))).toEqual([...userEventsBefore, 'DuplicateRegistrationAttempted']);
    expect((await new ApiClient(stack.baseUrl).login('user@seatlink.test', 'Oth3r!pass')).status).toBe(401);
    expect((await new ApiClient(stack.baseUrl).login('user@seatlink.test', 'User1234!')).status).toBe(200);
  });

  it('answers 12 parallel registrations of a taken address alike, spends their uses as any would, and tells the owner once', async () => {
    const invite = await newInvite(13);
    const ownerId = ((await admin.request('GET', '/v1/admin/users?limit=100')).body.users as User[]).find(
      (u) => u.email === 'admin@seatlink.test',
    )!.id;
    const before = (await streamTypes(userStream(ownerId))).filter((t) => t === 'DuplicateRegistrationAttempted');
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        new ApiClient(stack.baseUrl).request(
          'POST',
          '/v1/auth/register',
          registration('admin@seatlink.test', invite.code),
        ),
      ),
    );
    for (const res of answers) {
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ message: IDENTITY_MESSAGES.registered });
    }
    await expect.poll(() => inviteUsed(invite.code)).toBe(12);
    const after = (await streamTypes(userStream(ownerId))).filter((t) => t === 'DuplicateRegistrationAttempted');
    expect(after).toHaveLength(before.length + 1);
    const rows = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from users where email = 'admin@seatlink.test'`,
    );
    expect(rows[0]!.n).toBe(1);
    // The code's last use works for a new address.
    expect(
      (
        await new ApiClient(stack.baseUrl).request(
          'POST',
          '/v1/auth/register',
          registration(`after-${Date.now()}@example.com`, invite.code),
        )
      ).status,
    ).toBe(201);
  });

  it('still refuses a taken address with an invite that is not valid, as it refuses a new one', async () => {
    const res = await new ApiClient(stack.baseUrl).request(
      'POST',
      '/v1/auth/register',
      registration('user@seatlink.test', 'NOSUCHCODE'),
    );
    const fresh = await new ApiClient(stack.baseUrl).request(
      'POST',
      '/v1/auth/register',
      registration(`nocode-${Date.now()}@example.com`, 'NOSUCHCODE'),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fresh.body);
  });

  it.each([
    ['too short', 'Ab1!', 'Password must be at least 8 characters long'],
    [
      'without a digit or special',
      'abcdefgH',
      'Password must contain uppercase, lowercase, numbers, and special characters',
    ],
  ])('refuses a password %s with the rule as message', async (_label, password, message) => {
    const invite = await newInvite();
    const res = await new ApiClient(stack.baseUrl).request(
      'POST',
      '/v1/auth/register',
      registration(`weak-${Date.now()}@example.com`, invite.code, password),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
  });

  it('lets only as many of 24 racing registrations succeed as the code has uses left', async () => {
    const invite = await newInvite(3);
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        new ApiClient(stack.baseUrl).request(
          'POST',
          '/v1/auth/register',
          registration(`race${i}@example.com`, invite.code),
        ),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 400)).toBe(true);
    for (const r of results.filter((r) => r.status === 400)) {
      expect(r.body.message).toBe('This invite code has reached its maximum number of uses');
    }
    const rows = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from users where email like 'race%@example.com'`,
    );
    expect(rows[0]!.n).toBe(3);
    const codes = (await admin.request('GET', '/v1/admin/invites')).body.invite_codes as InviteCode[];
    expect(codes.find((c) => c.code === invite.code)?.used).toBe(3);
  });

  it('resets a forgotten password through the e-mailed link: single use, old sessions end, new password works', async () => {
    const owner = new ApiClient(stack.baseUrl);
    expect((await owner.login('user@seatlink.test', 'User1234!')).status).toBe(200);

    const visitor = new ApiClient(stack.baseUrl);
    const unknown = await visitor.request('POST', '/v1/forgot-password', { email: 'nobody@example.com' });
    const known = await visitor.request('POST', '/v1/forgot-password', { email: 'user@seatlink.test' });
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    const token = TestSmtpServer.token(await smtp.waitFor('user@seatlink.test', /Reset your password/));

    expect((await visitor.request('POST', '/v1/auth/validate-reset-token', { token })).status).toBe(200);
    const weak = await visitor.request('POST', '/v1/auth/reset-password', { token, password: 'short' });
    expect(weak.status).toBe(400);
    const reset = await visitor.request('POST', '/v1/auth/reset-password', { token, password: 'N3w!Password' });
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe('Password reset successfully');

    expect((await owner.request('GET', '/v1/me')).status).toBe(401);
    expect((await visitor.request('POST', '/v1/auth/reset-password', { token, password: 'An0ther!pw' })).status).toBe(
      400,
    );
    expect((await visitor.request('POST', '/v1/auth/validate-reset-token', { token })).status).toBe(400);
    expect((await new ApiClient(stack.baseUrl).login('user@seatlink.test', 'User1234!')).status).toBe(401);
    expect((await new ApiClient(stack.baseUrl).login('user@seatlink.test', 'N3w!Password')).status).toBe(200);
  });

  it('refuses a reset link past its hour', async () => {
    await new ApiClient(stack.baseUrl).request('POST', '/v1/forgot-password', { email: 'admin@seatlink.test' });
    const token = TestSmtpServer.token(await smtp.waitFor('admin@seatlink.test', /Reset your password/));
    await database.db.execute(
      sql`update auth_tokens set expires_at = now() - interval '1 minute' where kind = 'reset_password' and used_at is null`,
    );
    const res = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/validate-reset-token', { token });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(IDENTITY_MESSAGES.resetTokenInvalid);
  });

  it('sends a reset e-mail when an admin asks for it', async () => {
    const users = (await admin.request('GET', '/v1/admin/users?limit=100')).body.users as User[];
    const nia = users.find((u) => u.email === 'nia@example.com')!;
    const before = smtp.messages.filter((m) => m.to === 'nia@example.com').length;
    const res = await admin.request('POST', `/v1/admin/users/${nia.id}/reset-password`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(IDENTITY_MESSAGES.adminResetSent);
    await expect.poll(() => smtp.messages.filter((m) => m.to === 'nia@example.com').length).toBe(before + 1);
  });

  it('adds a waitlist entry once: a repeat is accepted quietly', async () => {
    const visitor = new ApiClient(stack.baseUrl);
    const body = { email: 'Wait@Example.com', first_name: 'Wes', last_name: 'Tan', token: null };
    const first = await visitor.request('POST', '/v1/waitlist', body);
    const repeat = await visitor.request('POST', '/v1/waitlist', body);
    expect(first.status).toBe(200);
    expect(repeat.status).toBe(200);
    expect(first.body.message).toBe(IDENTITY_MESSAGES.waitlistJoined);
    await expect
      .poll(async () =>
        queryRows(database.db, sql`select email from waitlist_entries where email = 'wait@example.com'`),
      )
      .toEqual([{ email: 'wait@example.com' }]);
    const bad = await visitor.request('POST', '/v1/waitlist', { ...body, email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Please enter a valid email address');
  });
});
