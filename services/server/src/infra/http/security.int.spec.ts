import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../../testing/test-app.js';
import { testEnv } from '../../testing/test-database.js';

const ASSET = 'assets/index-Ab12Cd34.js';
const LINK_ASSET = 'assets/link-Ef56Gh78.js';
/** The dashboard's one inline script (the theme before the first paint), allowed by its hash alone. */
const INLINE = "document.documentElement.classList.toggle('dark', true);";
const INLINE_HASH = `'sha256-${createHash('sha256').update(INLINE).digest('base64')}'`;

describe('response headers, compression and caching', () => {
  let stack: TestStack;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'seatlink-web-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><html lang="en-GB"><head><script>${INLINE}</script>` +
        `<script type="module" src="/${ASSET}"></script></head><body></body></html>`,
    );
    // A shared ticket's page, an entry of its own with the same inline script (the build writes it into both pages).
    writeFileSync(
      path.join(dist, 'link.html'),
      `<!doctype html><html lang="en-GB"><head><script>${INLINE}</script>` +
        `<script type="module" src="/${LINK_ASSET}"></script></head><body></body></html>`,
    );
    writeFileSync(path.join(dist, LINK_ASSET), 'console.log(2);');
    writeFileSync(path.join(dist, ASSET), `console.log(${JSON.stringify('x'.repeat(20_000))});`);
    stack = await startTestStack({ webDist: dist });
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (p: string, headers: Record<string, string> = {}) => fetch(stack.baseUrl + p, { headers });

  it.each(['/', '/dashboard/accounts/some-id', `/l/${'A'.repeat(22)}`])(
    'serves the dashboard and a shared ticket’s page (%s) with the security headers, their inline script by hash',
    async (p) => {
      const res = await get(p);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<html');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain(`script-src 'self' ${INLINE_HASH} https://www.google.com/recaptcha/`);
      const scriptSrc = csp.split(';').find((d) => d.startsWith('script-src')) ?? '';
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(csp.match(/'sha256-/g)).toHaveLength(1);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    },
  );

  it('sends hashed assets compressed and cached as immutable', async () => {
    const br = await get(`/${ASSET}`, { 'accept-encoding': 'br' });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await br.text()).toContain('xxxx');
    const gzip = await get(`/${ASSET}`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
  });

  it.each(['/health', '/v1/links/Ab12Cd34Ef56Gh78/claim', '/v1/me'])(
    'puts the API set of headers on API answers (%s), and answers /health with its status only',
    async (p) => {
      const res = await get(p);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('strict-transport-security')).toContain('max-age=');
      expect(res.headers.get('x-xss-protection')).toBeNull();
      if (p === '/health') expect(Object.keys((await res.json()) as object)).toEqual(['status']);
    },
  );

  it('answers a link claim (served without Nest’s pipeline) like every other call: headers, request id, CORS, errors', async () => {
    const origin = new URL(stack.config.DASHBOARD_URL).origin;
    const claim = (code: string, headers: Record<string, string>, body?: string) =>
      fetch(`${stack.baseUrl}/v1/links/${code}/claim`, { method: 'POST', headers: { origin, ...headers }, body });
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0' };
    const cases: Array<[Response, number, Record<string, unknown>]> = [
      [await claim('A'.repeat(22), browser), 404, { code: 'LINK_NOT_FOUND' }],
      [await claim('short', browser), 400, {}],
      [await claim('A'.repeat(22), { 'user-agent': 'Slackbot-LinkExpanding 1.0' }), 403, { code: 'AUTOMATED_CLIENT' }],
      [await claim('A'.repeat(22), { ...browser, 'idempotency-key': 'a b' }), 400, { code: 'INVALID_IDEMPOTENCY_KEY' }],
      [
        await claim('A'.repeat(22), { ...browser, 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'),
        415,
        { message: 'Unsupported content type; send JSON' },
      ],
    ];
    for (const [res, status, body] of cases) {
      expect(res.status).toBe(status);
      const answer = (await res.json()) as { message?: unknown };
      expect(answer).toMatchObject({ ...body, statusCode: status });
      expect(typeof answer.message).toBe('string');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    }
    const given = await claim('A'.repeat(22), { ...browser, 'x-request-id': 'proxy-given.1' });
    expect(given.headers.get('x-request-id')).toBe('proxy-given.1');
    // From another site: refused before anything runs.
    const foreign = await fetch(`${stack.baseUrl}/v1/links/${'A'.repeat(22)}/claim`, {
      method: 'POST',
      headers: { ...browser, origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
  });

  it.skipIf(!testEnv.redisUrl)('gives the queue board, a page under /v1, a page policy, not the API one', async () => {
    const res = await get('/v1/admin/queues');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
});
