import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';

/** With both reCAPTCHA keys set, sign-in, registration and the waitlist ask a (local stand-in for) Google first. */
describe('human check on the visitor calls', () => {
  let google: FastifyInstance;
  let stack: TestStack;
  const received: Array<Record<string, string>> = [];

  beforeAll(async () => {
    google = Fastify();
    await google.register(import('@fastify/formbody'));
    google.post('/siteverify', async (request) => {
      const form = request.body as Record<string, string>;
      received.push(form);
      const [action, score] = form.response!.split(':');
      return { success: true, action, score: Number(score), challenge_ts: new Date().toISOString(), hostname: 'x' };
    });
    const url = await google.listen({ port: 0, host: '127.0.0.1' });
    stack = await startTestStack({
      redis: false,
      env: {
        RECAPTCHA_SECRET_KEY: 'secret-key',
        RECAPTCHA_SITE_KEY: 'site-key',
        RECAPTCHA_VERIFY_URL: `${url}/siteverify`,
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await google?.close();
  });

  it('hands the site key to the browser', async () => {
    const res = await new ApiClient(stack.baseUrl).request('GET', '/v1/config');
    expect(res.body).toEqual({ captcha_site_key: 'site-key' });
  });

  it.each([
    ['no token', null],
    ['a low score', 'login:0.2'],
    ['the wrong action', 'register:0.9'],
  ])('refuses sign-in with %s: 403 CAPTCHA_FAILED', async (_label, token) => {
    const res = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth', {
      email: 'user@seatlink.test',
      password: 'User1234!',
      token,
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('CAPTCHA_FAILED');
  });

  it('signs in with a passing token, verified with the secret key', async () => {
    const res = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth', {
      email: 'user@seatlink.test',
      password: 'User1234!',
      token: 'login:0.9',
    });
    expect(res.status).toBe(200);
    expect(received.at(-1)).toMatchObject({ secret: 'secret-key', response: 'login:0.9' });
  });

  it('checks the waitlist with its own action', async () => {
    const body = { email: 'human@example.com', first_name: 'H', last_name: 'U' };
    const client = new ApiClient(stack.baseUrl);
    expect((await client.request('POST', '/v1/waitlist', { ...body, token: 'login:0.9' })).status).toBe(403);
    expect((await client.request('POST', '/v1/waitlist', { ...body, token: 'interestRegistration:0.9' })).status).toBe(
      200,
    );
  });
});
