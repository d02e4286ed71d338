import { randomBytes } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadModelWaiter } from '../subscriptions/read-model-waiter.js';
import { RegisterUserCommand } from '../../modules/identity/register-user.command.js';
import { startTestStack, type TestStack } from '../../testing/test-app.js';
import { testEnv } from '../../testing/test-database.js';

const PASSWORD = 'Thr0ttle!pw';
const LOGIN_MESSAGE = /^Too many failed sign-in attempts\. Please try again in (1 minute|\d+ minutes)\.$/;
const PUBLIC_MESSAGE = /^Too many requests\. Please try again in (1 minute|\d+ minutes)\.$/;

interface Answer {
  status: number;
  body: { message?: unknown; code?: unknown; user?: unknown };
  retryAfter: string | null;
}

/** One JSON call without cookies; answers the status, the body and the Retry-After header. */
async function call(stack: TestStack, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(stack.baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'], retryAfter: res.headers.get('retry-after') };
}

const signIn = (stack: TestStack, email: string, password: string, headers?: Record<string, string>) =>
  call(stack, '/v1/auth', { email, password, token: null }, headers);

/** Checks a 429 of the throttle: code RATE_LIMITED, the message, and a Retry-After within the window. */
function expectLimited(res: Answer, message: RegExp, windowMinutes = 15) {
  expect(res.status).toBe(429);
  expect(res.body.code).toBe('RATE_LIMITED');
  expect(res.body.message).toMatch(message);
  expect(res.retryAfter).toMatch(/^\d+$/);
  expect(Number(res.retryAfter)).toBeGreaterThan(0);
  expect(Number(res.retryAfter)).toBeLessThanOrEqual(windowMinutes * 60);
}

/** A verified user of its own, made through the command bus, so each test counts on a fresh account. */
async function newAccount(stack: TestStack, label: string): Promise<string> {
  const email = `${label}-${randomBytes(3).toString('hex')}@example.com`;
  const { position } = await stack.app.get(CommandBus).execute(
    new RegisterUserCommand({
      email,
      password: PASSWORD,
      firstName: 'Tom',
      lastName: 'Throttle',
      isAdmin: false,
      emailVerified: true,
    }),
  );
  await stack.app.get(ReadModelWaiter).waitFor(position, ['UserRegistered']);
  return email;
}

describe('sign-ins per account and IP (THROTTLE_LOGIN_ACCOUNT_IP=3, THROTTLE_LOGIN_ACCOUNT=6)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // TRUST_PROXY lets the test speak from several addresses through X-Forwarded-For.
    stack = await startTestStack({
      env: { THROTTLE_LOGIN_ACCOUNT_IP: '3', THROTTLE_LOGIN_ACCOUNT: '6', TRUST_PROXY: 'true' },
    });
  });
  afterAll(async () => stack?.close());
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('answers three wrong passwords with 401, then 429 even for the right one from that IP; another account still signs in', async () => {
    const email = await newAccount(stack, 'locked');
    for (let i = 0; i < 3; i++) {
      const res = await signIn(stack, email, 'Wrong!pass1', from('198.51.100.1'));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_CREDENTIALS');
    }
    expectLimited(await signIn(stack, email, PASSWORD, from('198.51.100.1')), LOGIN_MESSAGE);
    // The e-mail is the account's key however it is written.
    expectLimited(await signIn(stack, `  ${email.toUpperCase()} `, PASSWORD, from('198.51.100.1')), LOGIN_MESSAGE);
    const other = await signIn(stack, 'user@seatlink.test', 'User1234!', from('198.51.100.1'));
    expect(other.status).toBe(200);
  });

  it('does not let a stranger lock the user out: the right password from a clean IP still signs in', async () => {
    const email = await newAccount(stack, 'victim');
    for (let i = 0; i < 5; i++) await signIn(stack, email, 'Wrong!pass1', from('203.0.113.66'));
    expectLimited(await signIn(stack, email, 'Wrong!pass1', from('203.0.113.66')), LOGIN_MESSAGE);
    expect((await signIn(stack, email, PASSWORD, from('192.0.2.10'))).status).toBe(200);
  });

  it('past 6 failures from anywhere, asks every sign-in of the account for a second proof instead of refusing it', async () => {
    const email = await newAccount(stack, 'spread');
    for (let i = 0; i < 6; i++) {
      expect((await signIn(stack, email, 'Wrong!pass1', from(`203.0.113.${10 + i}`))).status).toBe(401);
    }
    // Not 429: the owner is never locked out. The right password and a wrong one get the same answer, no session.
    const right = await signIn(stack, email, PASSWORD, from('192.0.2.20'));
    const wrong = await signIn(stack, email, 'Wrong!pass1', from('192.0.2.21'));
    for (const res of [right, wrong]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('SIGN_IN_LINK_SENT');
      expect(res.body.user).toBeUndefined();
    }
    expect(right.body).toEqual(wrong.body);
  });

  it('counts 30 parallel wrong passwords before checking any: only 3 are checked', async () => {
    const email = await newAccount(stack, 'burst');
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => signIn(stack, email, 'Wrong!pass1', from('198.51.100.30'))),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(27);
  });

  it('starts the count again after a successful sign-in (2 failures, success, 2 failures: still allowed)', async () => {
    const email = await newAccount(stack, 'reset');
    const ip = from('198.51.100.40');
    for (let i = 0; i < 2; i++) expect((await signIn(stack, email, 'Wrong!pass1', ip)).status).toBe(401);
    expect((await signIn(stack, email, PASSWORD, ip)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await signIn(stack, email, 'Wrong!pass1', ip)).status).toBe(401);
    expect((await signIn(stack, email, PASSWORD, ip)).status).toBe(200);
  });

  it('counts failures against an unknown e-mail too', async () => {
    const email = `ghost-${randomBytes(3).toString('hex')}@example.com`;
    const ip = from('198.51.100.50');
    for (let i = 0; i < 3; i++) expect((await signIn(stack, email, 'Wrong!pass1', ip)).status).toBe(401);
    expectLimited(await signIn(stack, email, 'Wrong!pass1', ip), LOGIN_MESSAGE);
  });
});

describe('sign-ins per IP, in parallel (THROTTLE_LOGIN_IP=50)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { THROTTLE_LOGIN_IP: '50' } });
  });
  afterAll(async () => stack?.close());

  it('checks only 50 of 80 parallel attempts from one IP on different accounts', async () => {
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, i) => signIn(stack, `parallel${i}@example.com`, 'Wrong!pass1')),
    );
    expect(answers.filter((a) => a.status === 401)).toHaveLength(50);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(30);
  });
});

describe('failed sign-ins per IP (THROTTLE_LOGIN_IP=4) and public calls per IP (THROTTLE_PUBLIC_IP=3)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { THROTTLE_LOGIN_IP: '4', THROTTLE_PUBLIC_IP: '3' } });
  });
  afterAll(async () => stack?.close());

  it('refuses the 5th failed sign-in from one IP across different unknown e-mails, and then any sign-in', async () => {
    for (let i = 0; i < 4; i++) {
      expect((await signIn(stack, `unknown${i}@example.com`, 'Wrong!pass1')).status).toBe(401);
    }
    expectLimited(await signIn(stack, 'unknown4@example.com', 'Wrong!pass1'), LOGIN_MESSAGE);
    expectLimited(await signIn(stack, 'user@seatlink.test', 'User1234!'), LOGIN_MESSAGE);
  });

  it('refuses the 4th public POST from one IP with 429 and a message, on every public call', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await call(stack, '/v1/forgot-password', { email: `f${i}@example.com` })).status).toBe(200);
    }
    expectLimited(await call(stack, '/v1/forgot-password', { email: 'f3@example.com' }), PUBLIC_MESSAGE);
    expectLimited(
      await call(stack, '/v1/waitlist', { email: 'w@example.com', first_name: 'W', last_name: 'L', token: null }),
      PUBLIC_MESSAGE,
    );
    expectLimited(await call(stack, '/v1/auth/resend-verification', { email: 'f0@example.com' }), PUBLIC_MESSAGE);
  });
});

describe('per-IP limits and a client-sent X-Forwarded-For (THROTTLE_LOGIN_IP=2, THROTTLE_PUBLIC_IP=2)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { THROTTLE_LOGIN_IP: '2', THROTTLE_PUBLIC_IP: '2' } });
  });
  afterAll(async () => stack?.close());

  // The test client talks to the API directly (no proxy in between): an X-Forwarded-For it makes up must not buy it a
  // fresh allowance per invented address.
  it('does not reset the failed sign-in count of an IP for a made-up X-Forwarded-For', async () => {
    const results: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await signIn(stack, `spoof${i}@example.com`, 'Wrong!pass1', { 'x-forwarded-for': `203.0.113.${i}` });
      results.push(res.status);
    }
    expect(results).toEqual([401, 401, 429, 429]);
  });

  it('does not reset the public-call count of an IP for a made-up X-Forwarded-For', async () => {
    const results: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(
        stack,
        '/v1/forgot-password',
        { email: `p${i}@example.com` },
        { 'x-forwarded-for': `198.51.100.${i}` },
      );
      results.push(res.status);
    }
    expect(results).toEqual([200, 200, 429, 429]);
  });
});

// With REDIS_URL the counts live in Redis, so every API process behind the same prefix shares them.
describe.skipIf(!testEnv.redisUrl)('limits shared by two API processes through Redis', () => {
  const prefix = `tshared${randomBytes(4).toString('hex')}`;
  let a: TestStack;
  let b: TestStack;
  beforeAll(async () => {
    const env = { THROTTLE_LOGIN_ACCOUNT_IP: '3', REDIS_PREFIX: prefix };
    [a, b] = await Promise.all([startTestStack({ env }), startTestStack({ env })]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('counts failed sign-ins of one account across both processes', async () => {
    // Each process has its own database, seeded with the same demo users.
    expect((await signIn(a, 'user@seatlink.test', 'Wrong!pass1')).status).toBe(401);
    expect((await signIn(b, 'user@seatlink.test', 'Wrong!pass1')).status).toBe(401);
    expect((await signIn(a, 'user@seatlink.test', 'Wrong!pass1')).status).toBe(401);
    expectLimited(await signIn(b, 'user@seatlink.test', 'User1234!'), LOGIN_MESSAGE);
    expectLimited(await signIn(a, 'user@seatlink.test', 'User1234!'), LOGIN_MESSAGE);
    // The other account is untouched in both.
    expect((await signIn(b, 'admin@seatlink.test', 'Admin123!')).status).toBe(200);
  });

  it('and a success in one process clears the count for the other', async () => {
    expect((await signIn(a, 'admin@seatlink.test', 'Wrong!pass1')).status).toBe(401);
    expect((await signIn(a, 'admin@seatlink.test', 'Wrong!pass1')).status).toBe(401);
    expect((await signIn(b, 'admin@seatlink.test', 'Admin123!')).status).toBe(200);
    expect((await signIn(a, 'admin@seatlink.test', 'Wrong!pass1')).status).toBe(401);
    expect((await signIn(a, 'admin@seatlink.test', 'Wrong!pass1')).status).toBe(401);
    expect((await signIn(a, 'admin@seatlink.test', 'Admin123!')).status).toBe(200);
  });
});
