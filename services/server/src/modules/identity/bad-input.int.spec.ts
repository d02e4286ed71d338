import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_MESSAGES, type InviteCode, type User } from '@seatlink/contracts';
import { type Database, queryRows } from '../../infra/db/database.js';
import { DATABASE } from '../../infra/db/database.module.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';

const tomorrow = () => new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);
const STRONG = 'Str0ng!pass';
const UNKNOWN_UUID = '7a1c8f2e-1111-4222-8333-944455556666';

type Json = Record<string, unknown>;
type FieldKind = 'string' | 'number';

/** Filled in once the stack runs: a working invite code, so a bad body that slipped through would register. */
const live = { inviteCode: '' };

/**
 * Every POST/PUT route with a body: a body that passes validation, and the kind of each field. The `{id}` of the
 * credits route is filled in with the seeded user's id.
 */
const ROUTES: Array<{
  route: string;
  method: 'POST' | 'PUT';
  path: string;
  admin?: boolean;
  valid: () => Json;
  fields: Record<string, FieldKind>;
  /** Fields that may be left out. */
  optional?: string[];
  /** A string field and a length past its limit. */
  oversized: Array<[string, number]>;
}> = [
  {
    route: 'POST /v1/auth',
    method: 'POST',
    path: '/v1/auth',
    valid: () => ({ email: 'user@seatlink.test', password: 'User1234!', token: null }),
    fields: { email: 'string', password: 'string', token: 'string' },
    optional: ['token'],
    oversized: [
      ['email', 10_000],
      ['password', 5_000],
      ['token', 10_000],
    ],
  },
  {
    route: 'POST /v1/auth/register',
    method: 'POST',
    path: '/v1/auth/register',
    valid: () => ({
      email: 'newcomer@example.com',
      first_name: 'Nia',
      last_name: 'Reed',
      password: STRONG,
      invite_code: live.inviteCode,
      token: null,
    }),
    fields: {
      email: 'string',
      first_name: 'string',
      last_name: 'string',
      password: 'string',
      invite_code: 'string',
      token: 'string',
    },
    optional: ['token'],
    oversized: [
      ['email', 10_000],
      ['first_name', 300],
      ['last_name', 300],
      ['password', 5_000],
      ['invite_code', 5_000],
      ['token', 10_000],
    ],
  },
  {
    route: 'POST /v1/auth/resend-verification',
    method: 'POST',
    path: '/v1/auth/resend-verification',
    valid: () => ({ email: 'user@seatlink.test' }),
    fields: { email: 'string' },
    oversized: [['email', 10_000]],
  },
  {
    route: 'POST /v1/auth/verify-email',
    method: 'POST',
    path: '/v1/auth/verify-email',
    valid: () => ({ token: 'a'.repeat(43) }),
    fields: { token: 'string' },
    oversized: [['token', 5_000]],
  },
  {
    route: 'POST /v1/forgot-password',
    method: 'POST',
    path: '/v1/forgot-password',
    valid: () => ({ email: 'user@seatlink.test' }),
    fields: { email: 'string' },
    oversized: [['email', 10_000]],
  },
  {
    route: 'POST /v1/auth/validate-reset-token',
    method: 'POST',
    path: '/v1/auth/validate-reset-token',
    valid: () => ({ token: 'a'.repeat(43) }),
    fields: { token: 'string' },
    oversized: [['token', 5_000]],
  },
  {
    route: 'POST /v1/auth/reset-password',
    method: 'POST',
    path: '/v1/auth/reset-password',
    valid: () => ({ token: 'a'.repeat(43), password: STRONG }),
    fields: { token: 'string', password: 'string' },
    oversized: [
      ['token', 5_000],
      ['password', 5_000],
    ],
  },
  {
    route: 'POST /v1/waitlist',
    method: 'POST',
    path: '/v1/waitlist',
    valid: () => ({ email: 'waiting@example.com', first_name: 'Wes', last_name: 'Tan', token: null }),
    fields: { email: 'string', first_name: 'string', last_name: 'string', token: 'string' },
    optional: ['token'],
    oversized: [
      ['email', 10_000],
      ['first_name', 300],
      ['last_name', 300],
      ['token', 10_000],
    ],
  },
  {
    route: 'PUT /v1/admin/users/{id}/credits',
    method: 'PUT',
    path: '/v1/admin/users/{id}/credits',
    admin: true,
    valid: () => ({ credits: 10, reason: 'Goodwill for the outage' }),
    fields: { credits: 'number', reason: 'string', expected_balance: 'number' },
    optional: ['expected_balance'],
    oversized: [
      ['reason', 201],
      ['reason', 200_000],
    ],
  },
  {
    route: 'POST /v1/admin/invites',
    method: 'POST',
    path: '/v1/admin/invites',
    admin: true,
    valid: () => ({ max_uses: 10, expires_at: tomorrow() }),
    fields: { max_uses: 'number', expires_at: 'string' },
    optional: ['max_uses'],
    oversized: [['expires_at', 5_000]],
  },
];

/** Values of a wrong type for a field of each kind. */
const WRONG_TYPES: Record<FieldKind, Array<[string, unknown]>> = {
  string: [
    ['a number', 12345],
    ['a boolean', true],
    ['an array', ['user@seatlink.test']],
    ['an object', { value: 'x' }],
  ],
  number: [
    ['a string', '10'],
    ['a boolean', true],
    ['an array', [10]],
    ['an object', { value: 10 }],
    ['null', null],
  ],
};

/** What each route answers to its valid body (so, what a bad body that slipped through validation would get). */
/** Ways to slip a forbidden character into a field's valid value. */
const FORBIDDEN: Array<[string, (value: string) => string]> = [
  ['a NUL character', (v) => `${v.slice(0, 1)}\u0000${v.slice(1)}`],
  ['a right-to-left override (U+202E)', (v) => `${v.slice(0, 1)}\u202E${v.slice(1)}`],
  ['a first-strong isolate (U+2068)', (v) => `${v.slice(0, 1)}\u2068${v.slice(1)}`],
  ['an escape character', (v) => `${v.slice(0, 1)}\u001B[31m${v.slice(1)}`],
  ['a C1 control (U+009B)', (v) => `${v.slice(0, 1)}\u009B${v.slice(1)}`],
  ['a lone surrogate (U+D800)', (v) => `${v.slice(0, 1)}\uD800${v.slice(1)}`],
];

const VALID_ANSWERS: Record<string, [number, string?]> = {
  'POST /v1/auth': [200],
  'POST /v1/auth/register': [201, IDENTITY_MESSAGES.registered],
  'POST /v1/auth/resend-verification': [200, IDENTITY_MESSAGES.verificationSent],
  'POST /v1/auth/verify-email': [400, IDENTITY_MESSAGES.verificationInvalid],
  'POST /v1/forgot-password': [200, IDENTITY_MESSAGES.forgotPassword],
  'POST /v1/auth/validate-reset-token': [400, IDENTITY_MESSAGES.resetTokenInvalid],
  'POST /v1/auth/reset-password': [400, IDENTITY_MESSAGES.resetTokenInvalid],
  'POST /v1/waitlist': [200, IDENTITY_MESSAGES.waitlistJoined],
  'PUT /v1/admin/users/{id}/credits': [200, 'Credits updated successfully'],
  'POST /v1/admin/invites': [201],
};

interface BadCase {
  route: string;
  input: string;
  method: 'POST' | 'PUT';
  path: string;
  admin: boolean;
  /** Made when the case runs (the valid bodies need the live invite code). */
  body?: () => unknown;
  raw?: () => string;
  contentType?: string;
  /** Statuses that are right for this input. */
  statuses: number[];
}

function badCases(): BadCase[] {
  const cases: BadCase[] = [];
  for (const r of ROUTES) {
    const base = { route: r.route, method: r.method, path: r.path, admin: !!r.admin, statuses: [400] };
    const without = (field: string) => {
      const body = r.valid();
      delete body[field];
      return body;
    };
    cases.push({ ...base, input: 'an empty object', body: () => ({}) });
    for (const field of Object.keys(r.fields)) {
      if (!r.optional?.includes(field)) cases.push({ ...base, input: `no ${field}`, body: () => without(field) });
      for (const [label, value] of WRONG_TYPES[r.fields[field]!]) {
        cases.push({ ...base, input: `${field} as ${label}`, body: () => ({ ...r.valid(), [field]: value }) });
      }
    }
    for (const [field, kind] of Object.entries(r.fields)) {
      if (kind !== 'string') continue;
      // Characters no text field takes: NUL (PostgreSQL cannot store it), other C0/C1 controls, bidi overrides.
      for (const [label, inject] of FORBIDDEN) {
        cases.push({
          ...base,
          input: `${field} with ${label}`,
          body: () => {
            const body = r.valid();
            const value = typeof body[field] === 'string' && body[field] !== '' ? body[field] : 'text';
            return { ...body, [field]: inject(value) };
          },
        });
      }
    }
    for (const [field, length] of r.oversized) {
      const value = field === 'email' ? `${'a'.repeat(length - 12)}@example.com` : 'A'.repeat(length);
      cases.push({ ...base, input: `a ${length}-character ${field}`, body: () => ({ ...r.valid(), [field]: value }) });
    }
    cases.push({ ...base, input: 'a JSON array as body', body: () => [r.valid()] });
    cases.push({ ...base, input: 'a JSON string as body', body: () => 'hello' });
    cases.push({ ...base, input: 'JSON null as body', raw: () => 'null' });
    cases.push({ ...base, input: 'malformed JSON', raw: () => '{"email":' });
    cases.push({
      ...base,
      input: 'a text/plain body',
      raw: () => JSON.stringify(r.valid()),
      contentType: 'text/plain',
      statuses: [400, 415],
    });
    cases.push({
      ...base,
      input: 'a form-encoded body',
      raw: () => new URLSearchParams(r.valid() as Record<string, string>).toString(),
      contentType: 'application/x-www-form-urlencoded',
      statuses: [400, 415],
    });
    cases.push({ ...base, input: 'an empty JSON body', raw: () => '' });
    cases.push({ ...base, input: 'no body at all' });
    cases.push({
      ...base,
      input: 'a body over 256 KiB',
      body: () => ({ ...r.valid(), padding: 'x'.repeat(300 * 1024) }),
      statuses: [413],
    });
  }
  return cases;
}

describe('bad input to every call: a 4xx with a message, never a 500, and nothing written', () => {
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  let visitor: ApiClient;
  let userId: string;
  let invite: InviteCode;

  /** Row counts of every table a refused call could have written to. */
  const counts = async () =>
    (
      await queryRows<Record<string, number>>(
        database.db,
        sql`select
          (select count(*)::int from users) as users,
          (select count(*)::int from credit_balances) as credit_balances,
          (select count(*)::int from invite_codes) as invite_codes,
          (select count(*)::int from waitlist_entries) as waitlist_entries,
          (select count(*)::int from auth_tokens) as auth_tokens,
          (select count(*)::int from sessions) as sessions,
          (select count(*)::int from events) as events,
          (select coalesce(sum(balance), 0)::int from credit_balances) as total_balance,
          (select count(*)::int from invite_codes where enabled) as enabled_invites,
          (select count(*)::int from users where is_banned) as banned_users`,
      )
    )[0]!;

  /** Sends one request and checks the answer is a 4xx of `statuses` with a message, and that nothing was written. */
  async function expectRefused(
    client: ApiClient,
    method: string,
    path: string,
    statuses: number[],
    init: { body?: unknown; raw?: string; contentType?: string } = {},
  ) {
    const before = await counts();
    const res = await client.request(method, path, init.body, {
      raw: init.raw,
      headers: init.contentType ? { 'content-type': init.contentType } : {},
    });
    expect(res.status).not.toBe(500);
    expect(statuses).toContain(res.status);
    expect(typeof res.body?.message).toBe('string');
    expect(res.body.message!.trim().length).toBeGreaterThan(0);
    expect(await counts()).toEqual(before);
    return res;
  }

  /**
   * Waits until the projector has caught up, so the row counts move only with the call under test (and an input that
   * wrongly got through cannot spill its read-model rows into the next case).
   */
  async function settled() {
    await subscriptionsCaughtUp(stack.app);
  }

  beforeAll(async () => {
    stack = await startTestStack();
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    visitor = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    userId = ((await new ApiClient(stack.baseUrl).login('user@seatlink.test', 'User1234!')).body.user as User).id;
    const created = await admin.request('POST', '/v1/admin/invites', { max_uses: 10, expires_at: tomorrow() });
    invite = created.body.invite_code as InviteCode;
    live.inviteCode = invite.code;
    await settled();
  });
  afterAll(async () => stack?.close());

  describe('bodies', () => {
    afterEach(settled);
    it.each(badCases())('$route refuses $input', async (c) => {
      const res = await expectRefused(c.admin ? admin : visitor, c.method, c.path.replace('{id}', userId), c.statuses, {
        body: c.body?.(),
        raw: c.raw?.(),
        contentType: c.contentType,
      });
      // Refused by validation, not by what a valid body would have met further on.
      const [, passedOn] = VALID_ANSWERS[c.route]!;
      if (passedOn) expect(res.body.message).not.toBe(passedOn);
      if (c.input === 'malformed JSON') expect(res.body.message).toMatch(/not valid JSON/);
      if (c.input === 'a body over 256 KiB') expect(res.body.message).toMatch(/too large/);
    });
  });

  describe('dates', () => {
    it.each(['9999-12-31', '+010000-01-01', '2099-01-01', '1900-01-01', '2026-02-30'])(
      'POST /v1/admin/invites refuses expires_at %s with 400, and writes nothing',
      async (expires) => {
        const res = await expectRefused(admin, 'POST', '/v1/admin/invites', [400], {
          body: { max_uses: 5, expires_at: expires },
        });
        expect(res.body.message).toMatch(/expires_at/);
      },
    );
  });

  describe('query parameters of GET /v1/admin/users', () => {
    it.each(['page=-1', 'limit=1000', 'page=abc', 'page=1.5', 'limit=0', 'limit=-5', 'page=1e9', 'page=1&page=2'])(
      '?%s → 400',
      async (query) => {
        await expectRefused(admin, 'GET', `/v1/admin/users?${query}`, [400]);
      },
    );
  });

  describe('path parameters', () => {
    const MALFORMED_IDS = [
      'not-a-uuid',
      '12345',
      `${UNKNOWN_UUID}x`,
      UNKNOWN_UUID.replaceAll('-', ''),
      "1'%20OR%20'1'='1",
    ];
    const userRoutes: Array<[string, string, unknown]> = [
      ['PUT', '/v1/admin/users/{id}/credits', { credits: 1, reason: 'Test' }],
      ['POST', '/v1/admin/users/{id}/reset-password', undefined],
      ['POST', '/v1/admin/users/{id}/toggle-ban', undefined],
    ];

    it.each(userRoutes.flatMap(([method, path, body]) => MALFORMED_IDS.map((id) => ({ method, path, body, id }))))(
      '$method $path with id "$id" → 400',
      async ({ method, path, body, id }) => {
        const res = await expectRefused(admin, method, path.replace('{id}', id), [400], { body });
        expect(res.body.message).toMatch(/UUID/);
      },
    );

    it.each(MALFORMED_IDS)('DELETE /v1/admin/invites/%s → 400', async (id) => {
      const res = await expectRefused(admin, 'DELETE', `/v1/admin/invites/${id}`, [400]);
      expect(res.body.message).toMatch(/UUID/);
    });

    it.each(userRoutes)('%s %s for an unknown user → 404 User not found', async (method, path, body) => {
      const res = await expectRefused(admin, method, path.replace('{id}', UNKNOWN_UUID), [404], { body });
      expect(res.body.message).toBe('User not found');
    });

    it('DELETE /v1/admin/invites/{id} for an unknown id → 404', async () => {
      const res = await expectRefused(admin, 'DELETE', `/v1/admin/invites/${UNKNOWN_UUID}`, [404]);
      expect(res.body.message).toBe('Invite code not found');
    });

    it('POST /v1/admin/invites/{code}/disable for an unknown code → 404', async () => {
      const res = await expectRefused(admin, 'POST', '/v1/admin/invites/NOSUCHCODE/disable', [404]);
      expect(res.body.message).toBe('Invite code not found');
    });

    it.each(['abc%24', 'ab%20cd', "x'%3B--", 'code%3Cscript%3E', '%E2%82%AC', 'A'.repeat(65)])(
      'POST /v1/admin/invites/%s/disable (odd characters) → 400, and the invite stays enabled',
      async (code) => {
        await expectRefused(admin, 'POST', `/v1/admin/invites/${code}/disable`, [400]);
        const codes = (await admin.request('GET', '/v1/admin/invites')).body.invite_codes as InviteCode[];
        expect(codes.find((c) => c.id === invite.id)?.enabled).toBe(true);
      },
    );
  });

  // Last, because these write: they show the valid bodies above differ from the bad ones only in the bad part.
  describe('the valid bodies the cases start from pass validation', () => {
    it.each(ROUTES)('$route', async (r) => {
      const [status, message] = VALID_ANSWERS[r.route]!;
      const res = await (r.admin ? admin : new ApiClient(stack.baseUrl)).request(
        r.method,
        r.path.replace('{id}', userId),
        // A fresh address, in case a bad input above got through with the template's.
        'email' in r.fields && r.route !== 'POST /v1/auth'
          ? { ...r.valid(), email: `fresh-${Date.now()}@example.com` }
          : r.valid(),
      );
      expect(res.status).toBe(status);
      if (message) expect(res.body.message).toBe(message);
    });
  });
});
