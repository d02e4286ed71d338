import type { MfaStatus, TotpConfirmResponse, TotpEnrolmentResponse } from '@seatlink/contracts';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
import { ageSession } from '../../testing/aged-session.js';
import { adminGateNotice } from '../../seed.js';

/** The code an authenticator app shows `stepsAhead` periods from now. */
const codeOf = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

describe('a second factor: an authenticator app and recovery codes', () => {
  let stack: TestStack;
  let database: Database;

  /** A signed-in user (and their password) who turned an authenticator app on. */
  const enrolled = async () => {
    const created = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    expect((await client.login(created.email, created.password)).status).toBe(200);
    const started = await client.request('POST', '/v1/me/mfa/totp');
    expect(started.status).toBe(200);
    const { secret, otpauth_url } = started.body as unknown as TotpEnrolmentResponse;
    const confirmed = await client.request('POST', '/v1/me/mfa/totp/confirm', { code: await codeOf(secret) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const { recovery_codes } = confirmed.body as unknown as TotpConfirmResponse;
    return { ...created, client, secret, otpauth_url, recoveryCodes: recovery_codes };
  };
  /** The first step of a sign-in: the password; answers the mfa_token. */
  const passwordStep = async (email: string, password: string) => {
    const res = await new ApiClient(stack.baseUrl).login(email, password);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'MFA_REQUIRED', message: 'Enter the code from your authenticator app' });
    expect(res.setCookie.some((c) => c.startsWith('seatlink_session=') && !c.startsWith('seatlink_session=;'))).toBe(
      false,
    );
    return res.body.mfa_token as string;
  };
  const secondStep = (mfaToken: string, code: string, client = new ApiClient(stack.baseUrl)) =>
    client.request('POST', '/v1/auth/mfa', { mfa_token: mfaToken, code }).then((res) => ({ res, client }));

  beforeAll(async () => {
    stack = await startTestStack();
    database = stack.app.get<Database>(DATABASE);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('enrols with a secret and a first code, answering ten recovery codes once; a wrong first code is refused', async () => {
    const created = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    await client.login(created.email, created.password);
    // Another session, signed in with the password alone before the app is on (a stolen one, say).
    const before = new ApiClient(stack.baseUrl);
    await before.login(created.email, created.password);
    expect((await client.request('GET', '/v1/me/mfa')).body).toEqual({
      totp: false,
      required: false,
      passkeys: 0,
      recovery_codes_left: 0,
    });
    // Confirming before any secret was given: nothing is being set up.
    const early = await client.request('POST', '/v1/me/mfa/totp/confirm', { code: '123456' });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('MFA_NO_ENROLMENT');
    const { secret, otpauth_url } = (await client.request('POST', '/v1/me/mfa/totp'))
      .body as unknown as TotpEnrolmentResponse;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauth_url);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Seatlink:${created.email}`);
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Seatlink');
    expect(uri.searchParams.get('digits') ?? '6').toBe('6');
    expect(uri.searchParams.get('period') ?? '30').toBe('30');
    expect((uri.searchParams.get('algorithm') ?? 'SHA1').toUpperCase()).toBe('SHA1');
    const right = await codeOf(secret);
    const wrong = right === '000000' ? '000001' : '000000';
    const refused = await client.request('POST', '/v1/me/mfa/totp/confirm', { code: wrong });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'MFA_INVALID', message: 'That code is not right' });
    const ok = await client.request('POST', '/v1/me/mfa/totp/confirm', { code: right });
    expect(ok.status).toBe(200);
    const codes = (ok.body as unknown as TotpConfirmResponse).recovery_codes;
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    expect(new Set(codes).size).toBe(10);
    // Every other session ended with it; this one stays.
    expect((await before.request('GET', '/v1/me')).status).toBe(401);
    expect((await client.request('GET', '/v1/me')).status).toBe(200);
    expect((await client.request('GET', '/v1/me/mfa')).body as unknown as MfaStatus).toEqual({
      totp: true,
      required: false,
      passkeys: 0,
      recovery_codes_left: 10,
    });
    // On already: neither a new secret nor a second confirmation.
    expect((await client.request('POST', '/v1/me/mfa/totp')).status).toBe(409);
    // The secret and the recovery codes are in no event.
    const [leaked] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where data::text like $1 or data::text like $2`,
      [`%${secret}%`, `%${codes[0]!}%`],
    );
    expect(leaked!.n).toBe(0);
  });

  it('asks for the code after the password, and signs in with it once: the same code again is refused', async () => {
    const user = await enrolled();
    const token = await passwordStep(user.email, user.password);
    // A code of the app that was used (to confirm it) is not taken again; the next one is.
    const used = await codeOf(user.secret);
    const reused = await secondStep(token, used);
    expect(reused.res.status).toBe(401);
    expect(reused.res.body).toMatchObject({ code: 'MFA_INVALID' });
    const next = await codeOf(user.secret, 1);
    // Five presses at once with the same token and code: one signs in.
    const tries = await Promise.all(Array.from({ length: 5 }, () => secondStep(token, next)));
    expect(tries.map((t) => t.res.status).sort()).toEqual([200, 401, 401, 401, 401]);
    const winner = tries.find((t) => t.res.status === 200)!;
    expect(winner.res.body.user).toMatchObject({ email: user.email });
    expect((await winner.client.request('GET', '/v1/me')).status).toBe(200);
    // The token is used up.
    const again = await secondStep(token, next);
    expect(again.res.status).toBe(401);
  });

  it('signs in with a recovery code once, typed with or without its dash and in any case', async () => {
    const user = await enrolled();
    const code = user.recoveryCodes[3]!;
    const tokens = [await passwordStep(user.email, user.password)];
    const first = await secondStep(tokens[0]!, code.replace('-', '').toLowerCase());
    expect(first.res.status).toBe(200);
    expect((await user.client.request('GET', '/v1/me/mfa')).body).toEqual({
      totp: true,
      required: false,
      passkeys: 0,
      recovery_codes_left: 9,
    });
    const token = await passwordStep(user.email, user.password);
    // The same code at once from five places: none works (it was used), and the token survives a wrong code.
    const tries = await Promise.all(Array.from({ length: 5 }, () => secondStep(token, code)));
    expect(tries.map((t) => t.res.status)).toEqual([401, 401, 401, 401, 401]);
    const other = await secondStep(token, user.recoveryCodes[4]!);
    expect(other.res.status).toBe(200);
    // The owner is told of each security change: the app turned on, and each recovery code used.
    await subscriptionsCaughtUp(stack.app);
    const [told] = await database.query<{ n: number }>(
      `select count(*)::int as n from mail_outbox where "to" = $1 and subject = 'A security change on your Seatlink account'`,
      [user.email],
    );
    expect(told!.n).toBe(3);
  });

  it('refuses a token that is none, and every malformed body, with a 400 or 401 that says why', async () => {
    const user = await enrolled();
    const token = await passwordStep(user.email, user.password);
    expect((await secondStep('A'.repeat(43), '123456')).res).toMatchObject({
      status: 401,
      body: { code: 'MFA_TOKEN_INVALID' },
    });
    let deep: unknown = '123456';
    for (let i = 0; i < 100; i++) deep = { code: deep };
    for (const body of [
      {},
      { mfa_token: token },
      { mfa_token: token, code: '12345' },
      { mfa_token: token, code: '1234567' },
      { mfa_token: token, code: 'abc\u0000def' },
      { mfa_token: token, code: '12\u202E3456' },
      { mfa_token: token, code: '1'.repeat(5000) },
      { mfa_token: token, code: 123456 },
      { mfa_token: token, code: '123456', extra: 1 },
      { mfa_token: 'short', code: '123456' },
      { mfa_token: token, code: deep },
      [],
    ]) {
      const res = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/mfa', body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    // None of that used the token up.
    expect((await secondStep(token, user.recoveryCodes[0]!)).res.status).toBe(200);
  });

  it('turns the app off with a fresh code only; the password alone signs in again', async () => {
    const user = await enrolled();
    const wrong = await user.client.request('POST', '/v1/me/mfa/totp/disable', { code: 'AAAAA-AAAAA' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('MFA_INVALID');
    const off = await user.client.request('POST', '/v1/me/mfa/totp/disable', { code: user.recoveryCodes[9]! });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ message: 'Two-factor authentication is off' });
    expect((await user.client.request('GET', '/v1/me/mfa')).body).toEqual({
      totp: false,
      required: false,
      passkeys: 0,
      recovery_codes_left: 0,
    });
    expect((await new ApiClient(stack.baseUrl).login(user.email, user.password)).status).toBe(200);
    expect((await user.client.request('POST', '/v1/me/mfa/totp/disable', { code: '123456' })).status).toBe(409);
    // And on again, with a new secret and new recovery codes (the old ones are void).
    const { secret } = (await user.client.request('POST', '/v1/me/mfa/totp')).body as unknown as TotpEnrolmentResponse;
    expect(secret).not.toBe(user.secret);
    expect((await user.client.request('POST', '/v1/me/mfa/totp/confirm', { code: await codeOf(secret) })).status).toBe(
      200,
    );
    const token = await passwordStep(user.email, user.password);
    expect((await secondStep(token, user.recoveryCodes[1]!)).res.status).toBe(401);
  });

  it('counts the codes tried on an account: past its limit, 429 until the window passes', async () => {
    const limited = await startTestStack({ env: { THROTTLE_MFA_USER: '3' } });
    try {
      const created = await createVerifiedUser(limited.app);
      const client = new ApiClient(limited.baseUrl);
      await client.login(created.email, created.password);
      const { secret } = (await client.request('POST', '/v1/me/mfa/totp')).body as unknown as TotpEnrolmentResponse;
      expect((await client.request('POST', '/v1/me/mfa/totp/confirm', { code: await codeOf(secret) })).status).toBe(
        200,
      );
      const login = await new ApiClient(limited.baseUrl).login(created.email, created.password);
      const token = login.body.mfa_token as string;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await new ApiClient(limited.baseUrl).request('POST', '/v1/auth/mfa', {
          mfa_token: token,
          code: `00000${i}`,
        });
        statuses.push(res.status);
      }
      // The confirmation counted one: two wrong codes, then 429 — even for a right one.
      expect(statuses).toEqual([401, 401, 429, 429]);
      const right = await new ApiClient(limited.baseUrl).request('POST', '/v1/auth/mfa', {
        mfa_token: token,
        code: await codeOf(secret, 1),
      });
      expect(right.status).toBe(429);
      expect(right.body.message).toMatch(/^Too many codes tried\. Please try again in \d+ minutes?\.$/);
    } finally {
      await limited.close();
    }
  });

  it('a new sign-in voids the token of one left waiting', async () => {
    const user = await enrolled();
    const first = await passwordStep(user.email, user.password);
    const second = await passwordStep(user.email, user.password);
    const r = (await secondStep(first, user.recoveryCodes[0]!)).res;
    expect(r.status).toBe(401);
    expect((await secondStep(second, user.recoveryCodes[0]!)).res.status).toBe(200);
  });

  it('says in the start log that the admin gate is off where ADMIN_MFA=optional', async () => {
    expect(await adminGateNotice(stack.app, `${stack.baseUrl}/dashboard/settings#two-factor`)).toEqual({
      ready: true,
      text: 'Admin pages: ADMIN_MFA=optional is in force: admins use them without a second factor (for development only)',
    });
  });
});

describe('ADMIN_MFA=required: an admin without a second factor is sent to set one up first', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { ADMIN_MFA: 'required' } });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('refuses every admin call and the queue board with 403 MFA_ENROLMENT_REQUIRED until the admin enrols', async () => {
    const settings = `${stack.baseUrl}/dashboard/settings#two-factor`;
    // The start log says what to do.
    const before = await adminGateNotice(stack.app, settings);
    expect(before.ready).toBe(false);
    expect(before.text).toContain('ADMIN_MFA=required: admin@seatlink.test must set up a second factor');
    expect(before.text).toContain(`on Settings, ${settings}, before the admin pages work`);
    expect(before.text).toContain('ADMIN_MFA=optional');
    const admin = new ApiClient(stack.baseUrl);
    expect((await admin.login('admin@seatlink.test', 'Admin123!')).status).toBe(200);
    expect((await admin.request('GET', '/v1/me/mfa')).body).toEqual({
      totp: false,
      required: true,
      passkeys: 0,
      recovery_codes_left: 0,
    });
    for (const [method, path] of [
      ['GET', '/v1/admin/users'],
      ['GET', '/v1/admin/invites'],
      ['POST', '/v1/admin/invites'],
      ['GET', '/v1/admin/queues'],
    ] as const) {
      const res = await admin.request(method, path, method === 'POST' ? { max_uses: 1 } : undefined);
      expect(res.status, path).toBe(403);
      expect(res.body, path).toMatchObject({
        code: 'MFA_ENROLMENT_REQUIRED',
        message: 'Set up two-factor authentication (Settings) before using the admin pages',
      });
    }
    // Their own calls work meanwhile: the way to enrol is open.
    expect((await admin.request('GET', '/v1/tickets')).status).toBe(200);
    const { secret } = (await admin.request('POST', '/v1/me/mfa/totp')).body as unknown as TotpEnrolmentResponse;
    expect((await admin.request('POST', '/v1/me/mfa/totp/confirm', { code: await codeOf(secret) })).status).toBe(200);
    expect((await admin.request('GET', '/v1/admin/users')).status).toBe(200);
    expect(await adminGateNotice(stack.app, settings)).toEqual({
      ready: true,
      text: 'Admin pages: ADMIN_MFA=required, and admin@seatlink.test has a second factor',
    });

    // A user is no admin: the same 403 as ever, and nothing required of them.
    const user = new ApiClient(stack.baseUrl);
    await user.login('user@seatlink.test', 'User1234!');
    expect((await user.request('GET', '/v1/admin/users')).body).toMatchObject({ message: 'Admin access required' });
    expect(((await user.request('GET', '/v1/me/mfa')).body as unknown as MfaStatus).required).toBe(false);
  });
});

describe('step-up: setting credits, banning, resetting a password and creating invites need a fresh proof', () => {
  let stack: TestStack;
  let database: Database;
  beforeAll(async () => {
    stack = await startTestStack({ env: { STEP_UP_MINUTES: '10' } });
    database = stack.app.get<Database>(DATABASE);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  const aged = (client: ApiClient) => ageSession(database, client);

  it('asks an admin without an app for the password again, and only for those calls', async () => {
    const admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    const target = await createVerifiedUser(stack.app);
    const credits = () => admin.request('PUT', `/v1/admin/users/${target.id}/credits`, { credits: 7, reason: 'Test' });
    expect((await credits()).status).toBe(200);
    await aged(admin);
    expect((await admin.request('GET', '/v1/admin/users')).status).toBe(200);
    for (const [method, path, body] of [
      ['PUT', `/v1/admin/users/${target.id}/credits`, { credits: 7, reason: 'Test' }],
      ['POST', `/v1/admin/users/${target.id}/toggle-ban`, undefined],
      ['POST', `/v1/admin/users/${target.id}/reset-password`, undefined],
      ['POST', '/v1/admin/invites', { max_uses: 1 }],
    ] as const) {
      const res = await admin.request(method, path, body);
      expect(res.status, path).toBe(403);
      expect(res.body, path).toMatchObject({
        code: 'STEP_UP_REQUIRED',
        method: 'password',
        message: 'Confirm it is you: enter your password',
      });
    }
    // Setting up an app needs the proof too (a stolen session cannot put its own app on the account).
    expect((await admin.request('POST', '/v1/me/mfa/totp')).body).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect((await admin.request('POST', '/v1/me/step-up', { password: 'wrong-one' })).status).toBe(400);
    expect((await admin.request('POST', '/v1/me/step-up', { code: '123456' })).status).toBe(400);
    expect((await admin.request('POST', '/v1/me/step-up', {})).status).toBe(400);
    const ok = await admin.request('POST', '/v1/me/step-up', { password: 'Admin123!' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'Confirmed' });
    expect((await credits()).status).toBe(200);
    // Nothing was changed by the refused calls.
    const [banned] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where type = 'UserBanned' and data->>'userId' = $1`,
      [target.id],
    );
    expect(banned!.n).toBe(0);
  });

  it('asks an admin with an app for a code (or a recovery code, once)', async () => {
    const created = await createVerifiedUser(stack.app, { isAdmin: true });
    const admin = new ApiClient(stack.baseUrl);
    await admin.login(created.email, created.password);
    const { secret } = (await admin.request('POST', '/v1/me/mfa/totp')).body as unknown as TotpEnrolmentResponse;
    const { recovery_codes } = (await admin.request('POST', '/v1/me/mfa/totp/confirm', { code: await codeOf(secret) }))
      .body as unknown as TotpConfirmResponse;
    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const invite = () => admin.request('POST', '/v1/admin/invites', { max_uses: 1, expires_at: expires });
    await aged(admin);
    expect((await invite()).body).toMatchObject({ code: 'STEP_UP_REQUIRED', method: 'totp' });
    expect((await admin.request('POST', '/v1/me/step-up', { password: created.password })).status).toBe(400);
    expect((await admin.request('POST', '/v1/me/step-up', { code: await codeOf(secret, 1) })).status).toBe(200);
    expect((await invite()).status).toBe(201);
    await aged(admin);
    expect((await admin.request('POST', '/v1/me/step-up', { code: recovery_codes[0]! })).status).toBe(200);
    await aged(admin);
    expect((await admin.request('POST', '/v1/me/step-up', { code: recovery_codes[0]! })).status).toBe(400);
    expect((await invite()).status).toBe(403);
  });
});
