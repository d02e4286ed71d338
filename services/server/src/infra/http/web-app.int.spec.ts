import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../../testing/test-app.js';

/** The web app's own public files (robots.txt, favicon.svg), as the build copies them into web/dist. */
const WEB_PUBLIC = path.resolve(import.meta.dirname, '../../../../../web/public');
const INDEX_MARK = 'seatlink-dashboard-index';
const SIGN_IN_DRAWN = 'seatlink-sign-in-drawn';
const LINK_MARK = 'seatlink-link-page';

/** Which addresses get the dashboard, and with which status; which get a plain 404; which the API's JSON 404. */
describe('the dashboard, its files, and addresses that are not pages', () => {
  let stack: TestStack;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'seatlink-web-'));
    cpSync(WEB_PUBLIC, dist, { recursive: true });
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><html><head><title>Seatlink</title></head><body>${INDEX_MARK}</body></html>`,
    );
    writeFileSync(path.join(dist, 'link.html'), `<!doctype html><html><body>${LINK_MARK}</body></html>`);
    writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js'), 'console.log(1);');
    // Pages of their own, as the build writes them (web/vite.page-speed.ts pageChunks): index.html naming their chunks.
    const own = (chunks: string[]) =>
      `<!doctype html><html><head><title>Seatlink</title>${chunks.map((c) => `<link rel="modulepreload" crossorigin href="${c}">`).join('')}</head><body>${INDEX_MARK}</body></html>`;
    mkdirSync(path.join(dist, 'pages'));
    const listed: Record<string, { html: string; chunks: string[] }> = {
      '/dashboard': {
        html: 'pages/dashboard.html',
        chunks: ['/assets/dashboard-layout-Ab12Cd34.js', '/assets/overview-Ef56Gh78.js'],
      },
      '/dashboard/accounts/:accountId': {
        html: 'pages/dashboard.accounts.accountId.html',
        chunks: ['/assets/account-tickets.page-Ab12Cd34.js'],
      },
      '/register': { html: 'pages/register.html', chunks: ['/assets/register.page-Ab12Cd34.js'] },
    };
    for (const { html, chunks } of Object.values(listed)) writeFileSync(path.join(dist, html), own(chunks));
    // The sign-in page's own file: no chunks of its own, the page drawn by the build (its first screen).
    listed['/login'] = { html: 'pages/login.html', chunks: [] };
    writeFileSync(path.join(dist, 'pages/login.html'), own([]).replace('</body>', `${SIGN_IN_DRAWN}</body>`));
    // One listed file is outside pages/, one is not there: neither is read.
    writeFileSync(path.join(dist, 'elsewhere.html'), own(['/assets/elsewhere-Ab12Cd34.js']));
    listed['/waitlist'] = { html: 'elsewhere.html', chunks: ['/assets/elsewhere-Ab12Cd34.js'] };
    listed['/verify-email'] = { html: 'pages/verify-email.html', chunks: [] };
    writeFileSync(path.join(dist, 'page-chunks.json'), JSON.stringify(listed));
    stack = await startTestStack({ webDist: dist, role: 'api' });
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const request = (p: string, method = 'GET') => fetch(stack.baseUrl + p, { method, redirect: 'manual' });

  it.each([
    '/',
    '/login',
    '/register',
    '/waitlist',
    '/reset-password?token=abc',
    '/verify-email?token=abc',
    '/dashboard',
    '/dashboard/',
    '/Dashboard/Accounts',
    '/dashboard/accounts/8c2f4a61-7d3e-4b9a-b5f0-1e6c9d2a7b34',
    '/admin',
    '/admin/users',
    '/admin/users/8c2f4a61-7d3e-4b9a-b5f0-1e6c9d2a7b34/audits',
    '/admin/invites',
    '/admin/accounts',
    '/admin/duplicate-tickets',
  ])('answers the page %s with the dashboard and 200', async (p) => {
    const res = await request(p);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain(INDEX_MARK);
  });

  it.each([
    `/l/${'A'.repeat(22)}`,
    `/l/${'A'.repeat(22)}/`,
    `/L/${'A'.repeat(22)}`,
    `/l/${'A'.repeat(22)}?from=mail`,
    // Not a code a link can have: the page itself says there is no such link.
    '/l/not-a-link',
  ])('answers a shared ticket’s page %s with its own entry (link.html) and 200', async (p) => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await fetch(stack.baseUrl + p, { headers: { 'accept-encoding': encoding } });
      expect(res.status, encoding).toBe(200);
      expect(res.headers.get('content-type'), encoding).toContain('text/html');
      expect(res.headers.get('cache-control'), encoding).toBe('no-cache');
      const body = await res.text();
      expect(body, encoding).toContain(LINK_MARK);
      expect(body, encoding).not.toContain(INDEX_MARK);
    }
  });

  it('tells the browser to fetch a shared ticket while its page loads, and only for a well-formed code', async () => {
    const code = 'Ab_-'.repeat(5) + 'Zz';
    for (const p of [`/l/${code}`, `/l/${code}/`, `/L/${code}`, `/l/${code}?from=mail`]) {
      const res = await request(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('link'), p).toBe(
        `</v1/links/${code}>; rel=preload; as=fetch; crossorigin=use-credentials`,
      );
    }
    for (const p of ['/l/short', `/l/${'A'.repeat(21)}%0d%0aX-Evil:%201`, `/l/${code}/extra`, '/dashboard', '/login']) {
      expect((await request(p)).headers.get('link'), p).toBeNull();
    }
  });

  describe("names a page's own chunks, so they download beside the entry", () => {
    const preloads = async (p: string, cookie?: string) => {
      const res = await fetch(stack.baseUrl + p, { headers: cookie ? { cookie } : {} });
      expect(res.status, p).toBeLessThan(500);
      return [...(await res.text()).matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
        (m) => m[1],
      );
    };
    const session = 'theme=dark; seatlink_session=abc';

    it('for a signed-in page, when the request carries a session', async () => {
      // The pages are made in the background at start.
      await expect
        .poll(() => preloads('/dashboard', session), { timeout: 10_000 })
        .toEqual(['/assets/dashboard-layout-Ab12Cd34.js', '/assets/overview-Ef56Gh78.js']);
      expect(await preloads('/Dashboard/?tab=1', session)).toHaveLength(2);
      expect(await preloads('/dashboard/accounts/8c2f4a61-7d3e-4b9a-b5f0-1e6c9d2a7b34', session)).toEqual([
        '/assets/account-tickets.page-Ab12Cd34.js',
      ]);
    });

    it('not without a session (the visitor is sent to sign in), nor for pages the build lists nothing for', async () => {
      await expect.poll(() => preloads('/dashboard', session), { timeout: 10_000 }).toHaveLength(2);
      expect(await preloads('/dashboard')).toEqual([]);
      expect(await preloads('/dashboard', 'seatlink_session_old=abc')).toEqual([]);
      expect(await preloads('/login', session)).toEqual([]);
      expect(await preloads('/dashboard/nowhere', session)).toEqual([]);
      expect(await preloads('/dashboard/accounts', session)).toEqual([]);
    });

    it('the sign-in page drawn to a visitor, never to a request with a session (it is sent on to the dashboard)', async () => {
      const drawn = async (cookie?: string) =>
        (await (await fetch(`${stack.baseUrl}/login`, { headers: cookie ? { cookie } : {} })).text()).includes(
          SIGN_IN_DRAWN,
        );
      await expect.poll(() => drawn(), { timeout: 10_000 }).toBe(true);
      expect(await drawn('theme=dark')).toBe(true);
      expect(await drawn(session)).toBe(false);
    });

    it("for a public page to anyone, naming only the build's files", async () => {
      await expect
        .poll(() => preloads('/register'), { timeout: 10_000 })
        .toEqual(['/assets/register.page-Ab12Cd34.js']);
    });
  });

  it.each([
    '/nowhere',
    '/dashboard/nowhere',
    '/dashboard/accounts/8c2f4a61-7d3e-4b9a-b5f0-1e6c9d2a7b34/more',
    '/admin/settings',
    '/admin/users/8c2f4a61-7d3e-4b9a-b5f0-1e6c9d2a7b34',
    '/l',
    '/l/',
    `/l/${'A'.repeat(22)}/extra`,
    '/loginx',
    '/healthz',
    // Bytes at the edges: NUL, a bidi override.
    '/%00',
    '/%E2%80%AE',
  ])('answers %s, which could be a page but is none, with the dashboard (its not-found screen) and 404', async (p) => {
    const res = await request(p);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    const body = await res.text();
    expect(body).toContain(INDEX_MARK);
    expect(body).not.toContain(LINK_MARK);
  });

  it('answers a very long page-like path as a page that is none, and a very long file path as a file', async () => {
    const long = await request(`/${'a'.repeat(8000)}`);
    expect(long.status).toBe(404);
    expect(await long.text()).toContain(INDEX_MARK);
    const file = await request(`/${'a'.repeat(8000)}.php`);
    expect(file.status).toBe(404);
    expect(await file.text()).toBe('Not Found');
  });

  it.each([
    '/metrics',
    '/metrics/x',
    '/anything.php',
    '/wp-login.php',
    '/.env',
    '/.git/config',
    '/dashboard/accounts.json',
    '/l/abc.txt',
    '/x%2Ephp',
    '/assets/missing-Zz99Yy88.js',
    '/docs/nothing-here',
  ])('answers %s, which cannot be a page, with a plain 404', async (p) => {
    const res = await request(p);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const body = await res.text();
    expect(body).toBe('Not Found');
    expect(body).not.toContain(INDEX_MARK);
  });

  it.each(['/v1/nothing-here', '/v1', '/v1/admin/nothing/here', '/accounts/nothing', '/health/extra'])(
    'answers %s, under the API, with its usual JSON 404',
    async (p) => {
      const res = await request(p);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      const body = (await res.json()) as { message: unknown; statusCode: number };
      expect(body.statusCode).toBe(404);
      expect(typeof body.message).toBe('string');
    },
  );

  it('leaves the wallet simulator’s addresses to it (JSON), and answers an undecodable path 400 with a message', async () => {
    const sim = await request('/wallet-sim/nothing-here');
    expect(sim.status).toBe(404);
    expect(((await sim.json()) as { message: unknown }).message).toEqual(expect.any(String));
    for (const p of ['/%ff', '/%ED%A0%80', '/dashboard/%E0%A4%A']) {
      const res = await request(p);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: unknown }).message).toEqual(expect.any(String));
    }
  });

  it('answers a page for HEAD as for GET, and nothing but the API for other methods', async () => {
    expect((await request('/dashboard', 'HEAD')).status).toBe(200);
    expect((await request('/nowhere', 'HEAD')).status).toBe(404);
    expect((await request(`/l/${'A'.repeat(22)}`, 'HEAD')).status).toBe(200);
    for (const p of ['/dashboard', '/nowhere', '/x.php', `/l/${'A'.repeat(22)}`]) {
      const res = await request(p, 'DELETE');
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain(INDEX_MARK);
    }
    const post = await fetch(`${stack.baseUrl}/v1/nothing`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(404);
  });

  it('serves the web app’s files as files: robots.txt, the favicon, the built assets', async () => {
    const robots = await request('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toContain('text/plain');
    expect(await robots.text()).toBe(readFileSync(path.join(WEB_PUBLIC, 'robots.txt'), 'utf8'));
    expect((await request('/favicon.svg')).headers.get('content-type')).toContain('image/svg+xml');
    expect((await request('/assets/index-Ab12Cd34.js')).status).toBe(200);
    expect((await request('/docs/json')).status).toBe(200);
  });

  it('answers a page compressed as the client accepts (brotli, else gzip, else none), and says it varies so', async () => {
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['identity', null],
    ] as const) {
      const res = await fetch(`${stack.baseUrl}/login`, { headers: { 'accept-encoding': accept } });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-encoding'), accept).toBe(expected);
      expect(res.headers.get('vary'), accept).toMatch(/accept-encoding/i);
      expect(await res.text(), accept).toContain(INDEX_MARK);
    }
  });

  it('serves no dotfile of the build (its stamp of inputs): a plain 404', async () => {
    const res = await request('/.build-inputs');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not Found');
  });

  it('asks crawlers to keep out of the shared links, the admin area and the API, and lets them read the sign-in and the dashboard', () => {
    const rules = parseRobots(readFileSync(path.join(WEB_PUBLIC, 'robots.txt'), 'utf8'));
    for (const p of [
      `/l/${'A'.repeat(22)}`,
      '/admin/users',
      '/reset-password?token=x',
      '/verify-email?token=x',
      '/v1/links/x',
      '/docs',
      '/wallet-sim/save/x',
      '/',
    ]) {
      expect(crawlable(rules, p), p).toBe(false);
    }
    // The dashboard sends a crawler to the sign-in page.
    for (const p of ['/login', '/register', '/waitlist', '/dashboard', '/dashboard/accounts']) {
      expect(crawlable(rules, p), p).toBe(true);
    }
  });
});

interface Rule {
  allow: boolean;
  path: string;
}

/** The rules for every crawler (`User-agent: *`), as RFC 9309 reads them. */
function parseRobots(text: string): Rule[] {
  const rules: Rule[] = [];
  let forAll = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    const [field, ...rest] = line.split(':');
    const value = rest.join(':').trim();
    const name = field?.trim().toLowerCase();
    if (name === 'user-agent') forAll = value === '*';
    else if (forAll && (name === 'allow' || name === 'disallow') && value) {
      rules.push({ allow: name === 'allow', path: value });
    }
  }
  return rules;
}

/** RFC 9309: the longest matching rule wins; allow wins a tie; no rule, allowed. */
function crawlable(rules: Rule[], target: string): boolean {
  const matching = rules.filter((r) => target.startsWith(r.path));
  if (matching.length === 0) return true;
  const longest = Math.max(...matching.map((r) => r.path.length));
  return matching.some((r) => r.path.length === longest && r.allow);
}
