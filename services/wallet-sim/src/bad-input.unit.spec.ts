import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness, PASSWORD, samplePass } from './testing/sim-harness.js';

const EMAIL = 'casey@wallet.test';

describe('wallet-sim bad input', () => {
  let h: Harness;
  afterEach(async () => {
    await h.app.close();
  });

  it('answers unknown routes with 404 { error, message }', async () => {
    h = harness();
    const res = await h.get('/v1/tickets');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'No route GET /v1/tickets' });
  });

  it('refuses bodies that are too large (413) or of another type (415), never 500', async () => {
    h = harness();
    const big = await h.request({
      method: 'POST',
      url: '/v1/sessions',
      payload: { email: EMAIL, password: 'x'.repeat(70 * 1024) },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe('payload_too_large');
    const form = await h.request({
      method: 'POST',
      url: '/v1/sessions',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${EMAIL}&password=x`,
    });
    expect(form.statusCode).toBe(415);
    expect(form.json().error).toBe('unsupported_media_type');
    const text = await h.request({
      method: 'POST',
      url: '/v1/sessions',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(400);
  });

  it('ignores prototype tricks in JSON', async () => {
    h = harness();
    const res = await h.request({
      method: 'POST',
      url: '/control/wallets',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":"${EMAIL}","password":"p","first_name":"A","last_name":"B","__proto__":{"admin":true}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it.each([
    ['a missing e-mail', { password: PASSWORD, first_name: 'A', last_name: 'B' }],
    ['a bad e-mail', { email: 'not-an-email', password: PASSWORD, first_name: 'A', last_name: 'B' }],
    ['an empty first name', { email: EMAIL, password: PASSWORD, first_name: '  ', last_name: 'B' }],
    ['an overlong last name', { email: EMAIL, password: PASSWORD, first_name: 'A', last_name: 'B'.repeat(101) }],
    ['an unknown field', { email: EMAIL, password: PASSWORD, first_name: 'A', last_name: 'B', admin: true }],
  ])('refuses a wallet with %s', async (_label, payload) => {
    h = harness();
    const res = await h.request({ method: 'POST', url: '/control/wallets', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request', message: expect.any(String) });
  });

  it.each([
    ['no event', samplePass({ event: undefined })],
    ['an empty title', samplePass({ event: { title: '', subtitle: 'S' } })],
    ['an overlong subtitle', samplePass({ event: { title: 'T', subtitle: 'S'.repeat(201) } })],
    ['a bad logo slug', samplePass({ event: { title: 'T', subtitle: 'S', logo_slug: '../x' } })],
    ['a pass id with a slash', samplePass({ id: 'a/b' })],
    ['an overlong pass id', samplePass({ id: 'a'.repeat(101) })],
    ['a seat without a row', samplePass({ seat: { section: 'A', seat: '1' } })],
    ['a numeric seat', samplePass({ seat: { section: 'A', row: 1, seat: 1 } })],
    ['a date that is not ISO 8601', samplePass({ next_game: { title: 'G', date: 'next Saturday' } })],
    ['a date without a time zone', samplePass({ next_game: { title: 'G', date: '2026-12-01T15:00:00' } })],
    ['a negative delay', samplePass({ visible_after_ms: -1 })],
    ['a fractional delay', samplePass({ visible_after_ms: 1.5 })],
    ['a delay over 30 days', samplePass({ visible_after_ms: 31 * 86_400_000 })],
  ])('refuses a pass with %s', async (_label, payload) => {
    h = harness();
    await h.createWallet(EMAIL);
    const res = await h.addPass(EMAIL, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  it('refuses a bad password change, pass change and path parameters', async () => {
    h = harness();
    await h.createWallet(EMAIL);
    await h.addPass(EMAIL, samplePass({ id: 'p1' }));
    const password = await h.request({ method: 'POST', url: `/control/wallets/${EMAIL}/password`, payload: {} });
    expect(password.statusCode).toBe(400);
    const patch = await h.request({
      method: 'PATCH',
      url: `/control/wallets/${EMAIL}/passes/p1`,
      payload: { id: 'other' },
    });
    expect(patch.statusCode).toBe(400);
    const badId = await h.request({ method: 'DELETE', url: `/control/wallets/${EMAIL}/passes/bad%20id` });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error).toBe('invalid_request');
    const longEmail = await h.request({ method: 'DELETE', url: `/control/wallets/${'e'.repeat(300)}@x.test` });
    expect(longEmail.statusCode).toBe(400);
    expect(longEmail.json().error).toBe('invalid_request');
    // Fastify itself refuses longer path parameters (maxParamLength) and bad URLs before routing: the same shape.
    const huge = await h.request({ method: 'DELETE', url: `/control/wallets/${'e'.repeat(1100)}@x.test` });
    expect(huge.statusCode).toBe(414);
    expect(huge.json()).toEqual({ error: 'invalid_request', message: expect.any(String) });
    const badUrl = await h.request({ method: 'DELETE', url: `/control/wallets/%E0%A4%A` });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json().error).toBe('invalid_request');
  });
});
