import type { User } from '@seatlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../db/database.module.js';
import { type Database, queryRows } from '../db/database.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { sql } from 'drizzle-orm';

/**
 * Dates JavaScript reads but PostgreSQL cannot (or reads as another year), and text `Date.parse` takes for a date it
 * is not: each once reached a query and failed there (a 500, or for the CSV export the end of the process).
 */
const BAD_DATES = [
  '+010000-01-01T00:00:00Z',
  '10000-01-01',
  '-271821-04-20T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '+200000-01-01T00:00:00Z',
  '-200000-01-01T00:00:00Z',
  '0000-01-01',
  '0001-01-01T00:00:00+01:00',
  '9999-12-31T23:00:00-05:00',
  '2026-02-30',
  '0',
  '2025-06-01T12:00',
  '2025-06-01\u0000',
  '2025-06-01\u202e',
  '\ud800',
  '9'.repeat(5000),
];

describe('every date a route takes: refused with a 400 outside what JavaScript and PostgreSQL both hold', () => {
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  let user: ApiClient;
  let userId: string;
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);

  const written = async () =>
    (await queryRows<{ n: string }>(database.db, sql`select count(*)::text as n from events`))[0]!.n;

  beforeAll(async () => {
    process.on('uncaughtException', record);
    stack = await startTestStack();
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
  });
  afterAll(async () => {
    await stack?.close();
    process.off('uncaughtException', record);
  });

  /** A 400 that names the field, nothing written, and the process still answering. */
  async function refused(
    client: ApiClient,
    method: string,
    path: string,
    field: RegExp,
    body?: unknown,
  ): Promise<void> {
    const before = await written();
    const res = await client.request(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(400);
    expect(res.body.message).toMatch(field);
    expect(await written()).toBe(before);
    expect((await fetch(`${stack.baseUrl}/health`)).status).toBeLessThan(500);
    expect(uncaught).toEqual([]);
  }

  /** A query value as sent; a lone surrogate, which has no UTF-8, as the bytes a careless client would send. */
  const q = (value: string) => (value === '\ud800' ? '%ED%A0%80' : encodeURIComponent(value));

  it.each(BAD_DATES.map((d, i) => [i, d] as const))('audits: start_date and end_date #%i', async (_i, date) => {
    await refused(admin, 'GET', `/v1/admin/users/${userId}/audits?start_date=${q(date)}`, /^start_date: /);
    await refused(admin, 'GET', `/v1/admin/users/${userId}/audits?end_date=${q(date)}`, /^end_date: /);
  });

  it.each(BAD_DATES.map((d, i) => [i, d] as const))('audits.csv: start_date and end_date #%i', async (_i, date) => {
    await refused(admin, 'GET', `/v1/admin/users/${userId}/audits.csv?start_date=${q(date)}`, /^start_date: /);
    await refused(admin, 'GET', `/v1/admin/users/${userId}/audits.csv?end_date=${q(date)}`, /^end_date: /);
  });

  it.each(BAD_DATES.map((d, i) => [i, d] as const))('history: at #%i', async (_i, date) => {
    await refused(admin, 'GET', `/v1/admin/users/${userId}/history?at=${q(date)}`, /^at: /);
  });

  it.each(BAD_DATES.map((d, i) => [i, d] as const))('distribute: expiry_date #%i', async (_i, date) => {
    await refused(
      user,
      'POST',
      '/v1/tickets/distribute',
      /^expiry_date: Link expiry must be (a date and time|within five years)/,
      { ticket_ids: ['5f0c0e4e-5a54-4e55-9f4b-1c9a1b2c3d4e'], expiry_date: date },
    );
  });

  it.each(BAD_DATES.map((d, i) => [i, d] as const))('invites: expires_at #%i', async (_i, date) => {
    await refused(admin, 'POST', '/v1/admin/invites', /^expires_at: expires_at must be a date/, {
      max_uses: 5,
      expires_at: date,
    });
  });

  it('says which way a date is wrong: outside the years, or no date at all', async () => {
    const far = await admin.request('GET', `/v1/admin/users/${userId}/history?at=${q('+010000-01-01T00:00:00Z')}`);
    expect(far.body.message).toBe('at: at must be between the years 1 and 9999');
    const none = await admin.request('GET', `/v1/admin/users/${userId}/history?at=2026-02-30`);
    expect(none.body.message).toBe('at: at must be a date and time');
  });

  it('takes the edges of the range, and an offset', async () => {
    for (const at of ['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '2025-06-01T18:30+01:00']) {
      const res = await admin.request('GET', `/v1/admin/users/${userId}/history?at=${q(at)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    for (const [start, end] of [
      ['0001-01-01', '9999-12-31T23:59:59.999Z'],
      ['2020-01-01T00:00:00+14:00', '2030-01-01T00:00:00-12:00'],
    ]) {
      const path = `/v1/admin/users/${userId}/audits?start_date=${q(start!)}&end_date=${q(end!)}`;
      expect((await admin.request('GET', path)).status).toBe(200);
      const csv = await fetch(`${stack.baseUrl}${path.replace('/audits?', '/audits.csv?')}`, {
        headers: { cookie: admin.sessionCookie },
      });
      expect(csv.status).toBe(200);
      expect(await csv.text()).toContain('Event Time');
    }
  });
});
