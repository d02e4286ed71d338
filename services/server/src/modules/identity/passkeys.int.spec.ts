import type { MfaStatus, PasskeyAddedResponse, PasskeysResponse } from '@seatlink/contracts';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { SoftAuthenticator } from '../../testing/soft-authenticator.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
import { ageSession } from '../../testing/aged-session.js';

/** The test stack's dashboard (DASHBOARD_URL): the relying party passkeys are made for. */
const ORIGIN = 'http://localhost:3000';

describe('passkeys: a second factor, and a sign-in without a password', () => {
  let stack: TestStack;
  let database: Database;

  const signedIn = async (admin = false) => {
    const created = await createVerifiedUser(stack.app, { isAdmin: admin });
    const client = new ApiClient(stack.baseUrl);
    expect((await client.login(created.email, created.password)).status).toBe(200);
    return { ...created, client };
  };
  const registrationOptions = async (client: ApiClient) => {
    const res = await client.request('POST', '/v1/me/passkeys/options');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as unknown as PublicKeyCredentialCreationOptionsJSON;
  };
  /** A signed-in user who added a passkey held by `authenticator`. */
  const withPasskey = async (authenticator = new SoftAuthenticator(ORIGIN)) => {
    const user = await signedIn();
    const answer = authenticator.create(await registrationOptions(user.client));
    const res = await user.client.request('POST', '/v1/me/passkeys', { name: 'Laptop', response: answer });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { ...user, authenticator, passkeyId: answer.id, added: res.body as unknown as PasskeyAddedResponse };
  };
  const signInOptions = async (mfaToken?: string) => {
    const res = await new ApiClient(stack.baseUrl).request(
      'POST',
      '/v1/auth/passkey/options',
      mfaToken ? { mfa_token: mfaToken } : {},
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as unknown as PublicKeyCredentialRequestOptionsJSON;
  };
  const passkeySignIn = (body: object, client = new ApiClient(stack.baseUrl)) =>
    client.request('POST', '/v1/auth/passkey', body).then((res) => ({ res, client }));

  beforeAll(async () => {
    stack = await startTestStack();
    database = stack.app.get<Database>(DATABASE);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('adds a passkey: the first comes with ten recovery codes and ends the other sessions; a second comes with none', async () => {
    const user = await signedIn();
    const other = new ApiClient(stack.baseUrl);
    expect((await other.login(user.email, user.password)).status).toBe(200);
    const options = await registrationOptions(user.client);
    expect(options.rp).toEqual({ id: 'localhost', name: 'Seatlink' });
    expect(options.user.name).toBe(user.email);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required' });
    const authenticator = new SoftAuthenticator(ORIGIN);
    const first = authenticator.create(options);
    const res = await user.client.request('POST', '/v1/me/passkeys', { name: '  Work laptop  ', response: first });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const added = res.body as unknown as PasskeyAddedResponse;
    expect(added).toMatchObject({ message: 'Passkey added', passkey: { id: first.id, name: 'Work laptop' } });
    expect(added.recovery_codes).toHaveLength(10);
    expect((await other.request('GET', '/v1/me')).status).toBe(401);
    expect((await user.client.request('GET', '/v1/me')).status).toBe(200);

    // The second names the first as one the device must not make again, and brings no new codes.
    const again = await registrationOptions(user.client);
    expect(again.excludeCredentials?.map((c) => c.id)).toEqual([first.id]);
    const second = authenticator.create(again);
    const res2 = await user.client.request('POST', '/v1/me/passkeys', { name: 'Phone', response: second });
    expect(res2.status).toBe(201);
    expect(res2.body.recovery_codes).toBeUndefined();
    const list = (await user.client.request('GET', '/v1/me/passkeys')).body as unknown as PasskeysResponse;
    expect(list.passkeys.map((p) => [p.id, p.name, p.last_used_at])).toEqual([
      [first.id, 'Work laptop', null],
      [second.id, 'Phone', null],
    ]);
    expect((await user.client.request('GET', '/v1/me/mfa')).body as unknown as MfaStatus).toEqual({
      totp: false,
      passkeys: 2,
      required: false,
      recovery_codes_left: 10,
    });
    // The stream holds the public key, and neither recovery code in clear.
    const [event] = await database.query<{ data: { publicKey: string } }>(
      `select data from events where stream_id = $1 and type = 'PasskeyAdded' order by global_position limit 1`,
      [`user-${user.id}`],
    );
    expect(event!.data.publicKey).toMatch(/^[A-Za-z0-9_-]{60,}$/);
    const [leaked] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where data::text like $1`,
      [`%${added.recovery_codes![0]!}%`],
    );
    expect(leaked!.n).toBe(0);
  });

  it('refuses an answer made for another site, one sent twice, one to another user’s challenge, and bad bodies', async () => {
    const user = await signedIn();
    const stranger = await signedIn();
    const authenticator = new SoftAuthenticator(ORIGIN);
    const add = (response: unknown, name: unknown = 'Key', client = user.client) =>
      client.request('POST', '/v1/me/passkeys', { name, response });

    const phished = authenticator.create(await registrationOptions(user.client), {
      origin: 'https://seatl1nk.example',
    });
    expect((await add(phished)).body).toMatchObject({
      code: 'PASSKEY_INVALID',
      message: 'That passkey could not be used. Try again.',
    });
    // The challenge was spent on the refused answer: the same answer again finds none.
    expect((await add(phished)).body).toMatchObject({ code: 'PASSKEY_EXPIRED' });
    // Another user's challenge answered in this user's session.
    const theirs = authenticator.create(await registrationOptions(stranger.client));
    const crossed = await add(theirs);
    expect([crossed.status, crossed.body.code]).toEqual([400, 'PASSKEY_EXPIRED']);
    // A challenge this server never gave.
    const made = authenticator.create(await registrationOptions(user.client), { challenge: 'A'.repeat(43) });
    expect((await add(made)).body.code).toBe('PASSKEY_EXPIRED');

    const good = authenticator.create(await registrationOptions(user.client));
    const bad: Array<[unknown, unknown]> = [
      ['Key\u0000', good],
      ['\u202Eyek', good],
      ['x'.repeat(61), good],
      ['', good],
      ['Key', { ...good, type: 'password' }],
      ['Key', { ...good, response: { ...good.response, attestationObject: 'not base64url!' } }],
      ['Key', { ...good, response: { ...good.response, attestationObject: 'A'.repeat(40_000) } }],
      ['Key', { ...good, response: { ...good.response, clientDataJSON: 'e30' } }],
      ['Key', { ...good, response: { ...good.response, clientDataJSON: 'bm90IGpzb24' } }],
      ['Key', { ...good, response: { ...good.response, transports: ['<script>'] } }],
      ['Key', { ...good, clientExtensionResults: { credProps: { rk: { a: { b: { c: 1 } } } } } }],
      ['Key', 'a string'],
      ['Key', null],
    ];
    for (const [name, response] of bad) {
      const res = await add(response, name);
      expect(res.status, JSON.stringify([name, res.body])).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    // None of those spent the challenge of the good answer (none reached it), and nothing was added.
    expect((await user.client.request('GET', '/v1/me/passkeys')).body).toEqual({ passkeys: [] });
    expect((await add(good)).status).toBe(201);
  });

  it('never adds a passkey whose id is another account’s: that account’s passkey goes on working', async () => {
    const victim = await withPasskey();
    const attacker = await signedIn();
    const forged = new SoftAuthenticator(ORIGIN).create(await registrationOptions(attacker.client), {
      credentialId: victim.passkeyId,
    });
    const res = await attacker.client.request('POST', '/v1/me/passkeys', { name: 'Mine', response: forged });
    expect([res.status, res.body.code]).toEqual([409, 'PASSKEY_EXISTS']);
    expect((await attacker.client.request('GET', '/v1/me/passkeys')).body).toEqual({ passkeys: [] });
    // Its removal attempt touches nothing of the victim's.
    expect((await attacker.client.request('DELETE', `/v1/me/passkeys/${victim.passkeyId}`)).status).toBe(404);
    const { res: signedInAgain } = await passkeySignIn({ response: victim.authenticator.get(await signInOptions()) });
    expect(signedInAgain.status).toBe(200);
    const [use] = await database.query<{ user_id: string; counter: string }>(
      `select user_id, counter from passkey_uses where credential_id = $1`,
      [victim.passkeyId],
    );
    expect(use).toEqual({ user_id: victim.id, counter: '1' });
  });

  it('a password sign-in asks for the passkey, which finishes it once; its token cannot be used again', async () => {
    const user = await withPasskey();
    const step = await new ApiClient(stack.baseUrl).login(user.email, user.password);
    expect(step.status).toBe(401);
    expect(step.body).toMatchObject({
      code: 'MFA_REQUIRED',
      message: 'Use your passkey, or enter a code from your authenticator app',
      methods: ['passkey', 'recovery_code'],
    });
    const token = step.body.mfa_token as string;
    const options = await signInOptions(token);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([user.passkeyId]);
    // A touch without the PIN still counts as a second factor (the password was the first).
    const answer = user.authenticator.get(options, { verified: false });
    const tries = await Promise.all(
      Array.from({ length: 5 }, () => passkeySignIn({ mfa_token: token, response: answer })),
    );
    expect(tries.map((t) => t.res.status).sort()).toEqual([200, 401, 401, 401, 401]);
    const winner = tries.find((t) => t.res.status === 200)!;
    expect(winner.res.body.user).toMatchObject({ id: user.id });
    expect((await winner.client.request('GET', '/v1/me')).status).toBe(200);
    // The token is spent.
    const later = await passkeySignIn({ mfa_token: token, response: user.authenticator.get(await signInOptions()) });
    expect(later.res.body).toMatchObject({ code: 'MFA_TOKEN_INVALID' });
    expect(
      (await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/passkey/options', { mfa_token: token })).status,
    ).toBe(401);
    const listed = (await user.client.request('GET', '/v1/me/passkeys')).body as unknown as PasskeysResponse;
    expect(listed.passkeys[0]!.last_used_at).not.toBeNull();
  });

  it('signs in without a password with a passkey that verified the person; each answer once', async () => {
    const user = await withPasskey();
    const options = await signInOptions();
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe('required');
    expect(options.rpId).toBe('localhost');
    // A touch alone (no PIN, no fingerprint) is not a sign-in on its own.
    const touched = await passkeySignIn({ response: user.authenticator.get(options, { verified: false }) });
    expect([touched.res.status, touched.res.body.code]).toEqual([401, 'PASSKEY_INVALID']);

    const answer = user.authenticator.get(await signInOptions());
    const tries = await Promise.all(Array.from({ length: 5 }, () => passkeySignIn({ response: answer })));
    expect(tries.map((t) => t.res.status).sort()).toEqual([200, 401, 401, 401, 401]);
    const winner = tries.find((t) => t.res.status === 200)!;
    expect((await winner.client.request('GET', '/v1/me')).body).toMatchObject({ id: user.id, email: user.email });
    const [login] = await database.query<{ data: { method: string } }>(
      `select data from events where stream_id = $1 and type = 'UserLoggedIn' order by global_position desc limit 1`,
      [`user-${user.id}`],
    );
    expect(login!.data.method).toBe('passkey');
  });

  it('refuses an answer that names another user, none, a passkey not theirs, another site, or a counter gone back', async () => {
    const user = await withPasskey();
    const other = await withPasskey();
    const tries: Array<[string, () => Promise<object>]> = [
      [
        'no user handle',
        async () => ({ response: user.authenticator.get(await signInOptions(), { userHandle: null }) }),
      ],
      [
        'another user’s handle',
        async () => ({
          response: user.authenticator.get(await signInOptions(), {
            userHandle: Buffer.from(other.id).toString('base64url'),
          }),
        }),
      ],
      [
        'a handle that is no user id',
        async () => ({
          response: user.authenticator.get(await signInOptions(), {
            userHandle: Buffer.from('\u0000\u202E').toString('base64url'),
          }),
        }),
      ],
      [
        'another site',
        async () => ({ response: user.authenticator.get(await signInOptions(), { origin: 'https://evil.example' }) }),
      ],
    ];
    for (const [what, body] of tries) {
      const { res } = await passkeySignIn(await body());
      expect([res.status, res.body.code], what).toEqual([401, 'PASSKEY_INVALID']);
    }
    // A passkey of another user as the second factor of this user's sign-in.
    const step = await new ApiClient(stack.baseUrl).login(user.email, user.password);
    const token = step.body.mfa_token as string;
    const options = await signInOptions(token);
    const foreign = other.authenticator.get({ ...options, allowCredentials: [] });
    expect((await passkeySignIn({ mfa_token: token, response: foreign })).res.status).toBe(401);

    // A counter lower than the one last seen: a copy of the authenticator.
    expect((await passkeySignIn({ response: user.authenticator.get(await signInOptions()) })).res.status).toBe(200);
    user.authenticator.rewind(user.passkeyId, 0);
    const cloned = await passkeySignIn({ response: user.authenticator.get(await signInOptions()) });
    expect([cloned.res.status, cloned.res.body.code]).toEqual([401, 'PASSKEY_INVALID']);
  });

  it('removes a passkey: it signs in no more; with the last factor gone, so are the recovery codes', async () => {
    const user = await withPasskey();
    const codes = user.added.recovery_codes!;
    expect((await user.client.request('DELETE', '/v1/me/passkeys/not-a-passkey')).status).toBe(404);
    expect((await user.client.request('DELETE', `/v1/me/passkeys/${'A'.repeat(43)}`)).body).toMatchObject({
      code: 'PASSKEY_NOT_FOUND',
      message: 'Passkey not found',
    });
    // Someone else cannot remove it.
    const stranger = await signedIn();
    expect((await stranger.client.request('DELETE', `/v1/me/passkeys/${user.passkeyId}`)).status).toBe(404);

    const pending = user.authenticator.get(await signInOptions());
    const removed = await user.client.request('DELETE', `/v1/me/passkeys/${user.passkeyId}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body).toEqual({ message: 'Passkey removed' });
    expect((await passkeySignIn({ response: pending })).res.status).toBe(401);
    expect((await user.client.request('GET', '/v1/me/mfa')).body).toMatchObject({
      passkeys: 0,
      recovery_codes_left: 0,
    });
    // The password alone signs in again, and the old recovery codes are nothing.
    expect((await new ApiClient(stack.baseUrl).login(user.email, user.password)).status).toBe(200);
    expect((await user.client.request('DELETE', `/v1/me/passkeys/${user.passkeyId}`)).status).toBe(404);
    expect(codes).toHaveLength(10);
  });

  it('a recovery code finishes the sign-in of an account whose only factor is a passkey, once', async () => {
    const user = await withPasskey();
    const code = user.added.recovery_codes![0]!;
    const token = (await new ApiClient(stack.baseUrl).login(user.email, user.password)).body.mfa_token as string;
    const ok = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/mfa', { mfa_token: token, code });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const token2 = (await new ApiClient(stack.baseUrl).login(user.email, user.password)).body.mfa_token as string;
    const again = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/mfa', { mfa_token: token2, code });
    expect(again.body).toMatchObject({ code: 'MFA_INVALID' });
    // Six digits mean an app this account does not have.
    const digits = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/mfa', {
      mfa_token: token2,
      code: '123456',
    });
    expect(digits.status).toBe(401);
  });

  it('a banned user’s passkey signs nobody in; sign-in bodies out of shape are 400s', async () => {
    const user = await withPasskey();
    const admin = await signedIn(true);
    expect((await admin.client.request('POST', `/v1/admin/users/${user.id}/toggle-ban`)).status).toBe(200);
    const banned = await passkeySignIn({ response: user.authenticator.get(await signInOptions()) });
    expect([banned.res.status, banned.res.body.code]).toEqual([403, 'ACCOUNT_BANNED']);

    const answer = user.authenticator.get(await signInOptions());
    for (const body of [
      {},
      { response: answer, extra: 1 },
      { response: { ...answer, id: 'short' } },
      { response: { ...answer, response: { ...answer.response, signature: '' } } },
      { response: { ...answer, response: { ...answer.response, authenticatorData: 'AAAA' } } },
      { response: answer, mfa_token: 'x' },
      { response: answer, mfa_token: '\u0000'.repeat(30) },
    ]) {
      const { res } = await passkeySignIn(body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
    }
    const unknownToken = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/passkey/options', {
      mfa_token: 'A'.repeat(43),
    });
    expect([unknownToken.status, unknownToken.body.code]).toEqual([401, 'MFA_TOKEN_INVALID']);
  });
});

describe('a step-up with a passkey', () => {
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

  it('asks an admin whose factor is a passkey for it (or a recovery code), never the password', async () => {
    const created = await createVerifiedUser(stack.app, { isAdmin: true });
    const admin = new ApiClient(stack.baseUrl);
    await admin.login(created.email, created.password);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = (await admin.request('POST', '/v1/me/passkeys/options'))
      .body as unknown as PublicKeyCredentialCreationOptionsJSON;
    const added = await admin.request('POST', '/v1/me/passkeys', {
      name: 'Key',
      response: authenticator.create(options),
    });
    const codes = (added.body as unknown as PasskeyAddedResponse).recovery_codes!;
    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const invite = () => admin.request('POST', '/v1/admin/invites', { max_uses: 1, expires_at: expires });
    const confirmOptions = async () =>
      (await admin.request('POST', '/v1/me/step-up/passkey/options'))
        .body as unknown as PublicKeyCredentialRequestOptionsJSON;

    await aged(admin);
    expect((await invite()).body).toMatchObject({
      code: 'STEP_UP_REQUIRED',
      method: 'passkey',
      passkey: true,
      message: 'Confirm it is you: use your passkey, or enter a recovery code',
    });
    // Removing a passkey, or adding one, needs the proof too.
    expect((await admin.request('POST', '/v1/me/passkeys/options')).body).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    const removal = await admin.request(
      'DELETE',
      `/v1/me/passkeys/${(added.body as unknown as PasskeyAddedResponse).passkey.id}`,
    );
    expect(removal.body).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect((await admin.request('POST', '/v1/me/step-up', { password: created.password })).status).toBe(400);
    expect((await admin.request('POST', '/v1/me/step-up', { code: '123456' })).status).toBe(400);
    // A touch without the PIN or fingerprint does not stand in for the password.
    const touched = authenticator.get(await confirmOptions(), { verified: false });
    expect((await admin.request('POST', '/v1/me/step-up/passkey', { response: touched })).body).toMatchObject({
      code: 'PASSKEY_INVALID',
    });
    // An answer made for another site, and one sent twice: 400s, signed in still.
    const phished = authenticator.get(await confirmOptions(), { origin: 'https://evil.example' });
    const refused = await admin.request('POST', '/v1/me/step-up/passkey', { response: phished });
    expect([refused.status, refused.body.code]).toEqual([400, 'PASSKEY_INVALID']);
    const answer = authenticator.get(await confirmOptions());
    expect((await admin.request('POST', '/v1/me/step-up/passkey', { response: answer })).body).toEqual({
      message: 'Confirmed',
    });
    expect((await invite()).status).toBe(201);
    await aged(admin);
    expect((await admin.request('POST', '/v1/me/step-up/passkey', { response: answer })).body).toMatchObject({
      code: 'PASSKEY_EXPIRED',
    });
    expect((await invite()).status).toBe(403);
    // A challenge given for a sign-in is not one for a step-up.
    const signInChallenge = (await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/passkey/options', {}))
      .body as unknown as PublicKeyCredentialRequestOptionsJSON;
    const crossed = await admin.request('POST', '/v1/me/step-up/passkey', {
      response: authenticator.get(signInChallenge),
    });
    expect(crossed.status).toBe(400);
    // A recovery code confirms, once.
    expect((await admin.request('POST', '/v1/me/step-up', { code: codes[0]! })).status).toBe(200);
    expect((await invite()).status).toBe(201);
    await aged(admin);
    expect((await admin.request('POST', '/v1/me/step-up', { code: codes[0]! })).status).toBe(400);
    // A user without passkeys has no options to ask for.
    const plain = new ApiClient(stack.baseUrl);
    const someone = await createVerifiedUser(stack.app);
    await plain.login(someone.email, someone.password);
    expect((await plain.request('POST', '/v1/me/step-up/passkey/options')).status).toBe(404);
  });
});
