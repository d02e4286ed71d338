import net, { type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RecaptchaVerifier, type RecaptchaVerifierOptions } from './recaptcha.verifier.js';

const NOW = new Date('2026-03-01T09:30:00Z');
const secondsAgo = (s: number) => new Date(NOW.getTime() - s * 1000).toISOString();

interface Answer {
  status: number;
  /** An object is sent as JSON; a string is sent as it is, with a JSON content type. */
  body: unknown;
  delayMs?: number;
}

const good = (overrides: Record<string, unknown> = {}): Answer => ({
  status: 200,
  body: {
    success: true,
    score: 0.9,
    action: 'login',
    challenge_ts: secondsAgo(30).replace(/\.\d{3}Z$/, 'Z'), // Google's form: whole seconds
    hostname: 'localhost',
    ...overrides,
  },
});

/** Plays Google's siteverify endpoint on 127.0.0.1 and records every request it gets. */
class FakeSiteverify {
  readonly requests: Array<{ contentType: string | undefined; form: Record<string, string> }> = [];
  answer: Answer = good();
  url = '';
  private readonly app: FastifyInstance = Fastify({ logger: false });

  async start(): Promise<void> {
    // Google takes a form, not JSON: only that content type is understood here (anything else gets 415).
    this.app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    this.app.post('/recaptcha/api/siteverify', async (request, reply) => {
      this.requests.push({
        contentType: request.headers['content-type'],
        form: request.body as Record<string, string>,
      });
      const { status, body, delayMs } = this.answer;
      if (delayMs) await sleep(delayMs);
      reply.code(status).header('content-type', 'application/json; charset=utf-8');
      return typeof body === 'string' ? body : JSON.stringify(body);
    });
    await this.app.listen({ host: '127.0.0.1', port: 0 });
    this.url = `http://127.0.0.1:${(this.app.server.address() as AddressInfo).port}/recaptcha/api/siteverify`;
  }

  stop(): Promise<void> {
    return this.app.close();
  }
}

describe('RecaptchaVerifier against a siteverify server', () => {
  const google = new FakeSiteverify();
  const logger = { warn: vi.fn(), debug: vi.fn() };
  const verifier = (options: Partial<RecaptchaVerifierOptions> = {}) =>
    new RecaptchaVerifier({
      secretKey: 'test-secret',
      siteKey: 'test-site-key',
      verifyUrl: google.url,
      now: () => NOW,
      logger,
      ...options,
    });

  beforeAll(() => google.start());
  afterAll(() => google.stop());
  beforeEach(() => {
    google.requests.length = 0;
    google.answer = good();
    logger.warn.mockClear();
    logger.debug.mockClear();
  });

  it('passes a good token, after posting the secret, the token and the remote IP as a form', async () => {
    const v = verifier();
    expect(v.enabled).toBe(true);
    expect(v.siteKey).toBe('test-site-key');

    await expect(v.verify('token-from-the-browser', 'login', '203.0.113.7')).resolves.toBe(true);

    expect(google.requests).toEqual([
      {
        contentType: expect.stringMatching(/^application\/x-www-form-urlencoded/) as string,
        form: { secret: 'test-secret', response: 'token-from-the-browser', remoteip: '203.0.113.7' },
      },
    ]);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('leaves remoteip out when the caller has none', async () => {
    await expect(verifier().verify('tok', 'login')).resolves.toBe(true);
    expect(google.requests[0]?.form).toEqual({ secret: 'test-secret', response: 'tok' });
  });

  it('fails a score below the minimum (0.3 < 0.5); the minimum itself passes; the minimum is configurable', async () => {
    google.answer = good({ score: 0.3 });
    await expect(verifier().verify('tok', 'login')).resolves.toBe(false);
    google.answer = good({ score: 0.5 });
    await expect(verifier().verify('tok', 'login')).resolves.toBe(true);
    google.answer = good({ score: 0.7 });
    await expect(verifier({ minScore: 0.8 }).verify('tok', 'login')).resolves.toBe(false);
  });

  it('fails a token made for another action', async () => {
    google.answer = good({ action: 'register' });
    await expect(verifier().verify('tok', 'login')).resolves.toBe(false);
    await expect(verifier().verify('tok', 'register')).resolves.toBe(true);
  });

  it('fails a challenge older than the maximum age (120 s by default, configurable)', async () => {
    google.answer = good({ challenge_ts: secondsAgo(121) });
    await expect(verifier().verify('tok', 'login')).resolves.toBe(false);
    google.answer = good({ challenge_ts: secondsAgo(120) });
    await expect(verifier().verify('tok', 'login')).resolves.toBe(true);
    google.answer = good({ challenge_ts: secondsAgo(61) });
    await expect(verifier({ maxAgeSeconds: 60 }).verify('tok', 'login')).resolves.toBe(false);
    // A timestamp a little ahead of our clock (clock skew) is fresh.
    google.answer = good({ challenge_ts: secondsAgo(-5) });
    await expect(verifier().verify('tok', 'login')).resolves.toBe(true);
  });

  it('fails a challenge time that is missing or does not parse', async () => {
    google.answer = good({ challenge_ts: undefined });
    await expect(verifier().verify('tok', 'login')).resolves.toBe(false);
    google.answer = good({ challenge_ts: 'yesterday' });
    await expect(verifier().verify('tok', 'login')).resolves.toBe(false);
  });

  it('fails when Google says success false', async () => {
    google.answer = { status: 200, body: { success: false, 'error-codes': ['invalid-input-response'] } };
    await expect(verifier().verify('tok', 'login')).resolves.toBe(false);
    expect(String(logger.debug.mock.calls[0]?.[0])).toContain('invalid-input-response');
  });

  it('fails a missing or empty token without asking Google', async () => {
    const v = verifier();
    await expect(v.verify(undefined, 'login')).resolves.toBe(false);
    await expect(v.verify(null, 'register')).resolves.toBe(false);
    await expect(v.verify('', 'interestRegistration')).resolves.toBe(false);
    expect(google.requests).toHaveLength(0);
  });

  it('fails, and logs, when the server answers 500 (even with a passing body)', async () => {
    google.answer = { ...good(), status: 500 };
    await expect(verifier().verify('tok', 'login')).resolves.toBe(false);
    expect(google.requests).toHaveLength(1);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('500'));
  });

  it('fails, and logs, an answer that is not JSON or not the documented shape', async () => {
    google.answer = { status: 200, body: '{"success": true, "score": 0.9' };
    await expect(verifier().verify('tok', 'login')).resolves.toBe(false);
    expect(logger.warn).toHaveBeenLastCalledWith(expect.stringContaining('not JSON'));

    google.answer = good({ success: 'true' });
    await expect(verifier().verify('tok', 'login')).resolves.toBe(false);
    google.answer = good({ score: '0.9' });
    await expect(verifier().verify('tok', 'login')).resolves.toBe(false);
    expect(logger.warn).toHaveBeenLastCalledWith(expect.stringContaining('unexpected shape'));
  });

  it('fails, and logs, when the server does not answer in time', async () => {
    google.answer = { ...good(), delayMs: 1000 };
    const started = Date.now();
    await expect(verifier({ timeoutMs: 150 }).verify('tok', 'login')).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(900);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('no answer within 150 ms'));
  });

  it('fails, and logs, when nothing listens at the verify URL', async () => {
    const port = await closedPort();
    const v = verifier({ verifyUrl: `http://127.0.0.1:${port}/recaptcha/api/siteverify` });
    await expect(v.verify('tok', 'login')).resolves.toBe(false);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('unreachable'));
  });

  it('refuses a configuration that cannot work', () => {
    expect(() => verifier({ secretKey: '' })).toThrow(/secret key/);
    expect(() => verifier({ minScore: 1.5 })).toThrow(/minimum score/);
    expect(() => verifier({ maxAgeSeconds: 0 })).toThrow(/maximum age/);
  });
});

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
