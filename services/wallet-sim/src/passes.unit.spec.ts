import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness, samplePass } from './testing/sim-harness.js';

const EMAIL = 'casey@wallet.test';
const id = (n: number) => `pass-${String(n).padStart(4, '0')}`;

describe('wallet-sim passes', () => {
  let h: Harness;
  afterEach(async () => {
    await h.app.close();
  });

  async function setUp(options: Parameters<typeof harness>[0] = {}) {
    h = harness(options);
    await h.createWallet(EMAIL);
    return h.login(EMAIL);
  }

  it('answers a pass in the documented shape, with a logo URL on the simulator itself', async () => {
    const token = await setUp();
    await h.addPass(EMAIL, samplePass({ id: 'p1', barcode: '1234567890123456' }));
    await h.addPass(
      EMAIL,
      samplePass({
        id: 'p2',
        event: { title: 'Club Membership', subtitle: 'Season 2026/27', logo_slug: 'kingsmere-united' },
        seat: null,
        next_game: null,
      }),
    );
    const res = await h.get('/v1/passes', token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      passes: [
        {
          id: 'p1',
          barcode: '1234567890123456',
          event: {
            title: 'Harbourside Athletic vs Northgate Rovers',
            subtitle: 'Premier Division · Matchday 13',
            logo_url: 'http://localhost:80/logos/harbourside-athletic-vs-northgate-rovers.svg',
          },
          venue: { name: 'Quayside Stadium' },
          seat: { section: 'Block 112', row: 'K', seat: '23' },
          next_game: { title: 'Harbourside Athletic vs Northgate Rovers', date: '2026-11-25T15:00:00.000Z' },
          save_url: 'http://localhost:80/save/p1',
          updated_at: new Date(h.now()).toISOString(),
        },
        {
          id: 'p2',
          barcode: expect.stringMatching(/^\d{16}$/),
          event: {
            title: 'Club Membership',
            subtitle: 'Season 2026/27',
            logo_url: 'http://localhost:80/logos/kingsmere-united.svg',
          },
          venue: { name: 'Quayside Stadium' },
          seat: null,
          next_game: null,
          save_url: 'http://localhost:80/save/p2',
          updated_at: new Date(h.now()).toISOString(),
        },
      ],
      next_cursor: null,
    });
  });

  it('derives the logo origin from the request (host and protocol behind a trusted proxy)', async () => {
    const token = await setUp({ trustProxy: true });
    await h.addPass(EMAIL, samplePass({ id: 'p1', event: { title: 'X', subtitle: 'Y', logo_slug: 'x-club' } }));
    const res = await h.request({
      method: 'GET',
      url: '/v1/passes',
      headers: { authorization: `Bearer ${token}`, host: 'wallet.example:8443', 'x-forwarded-proto': 'https' },
    });
    expect(res.json().passes[0].event.logo_url).toBe('https://wallet.example:8443/logos/x-club.svg');
    expect(res.json().passes[0].save_url).toBe('https://wallet.example:8443/save/p1');
  });

  it('serves the save page of a shared pass, escaping its text, and a 404 page for an unknown pass', async () => {
    await setUp();
    await h.addPass(
      EMAIL,
      samplePass({ id: 'p1', event: { title: '<script>x</script> Final', subtitle: 'Cup', logo_slug: 'x-club' } }),
    );
    const saved = await h.request({ method: 'GET', url: '/save/p1' });
    expect(saved.statusCode).toBe(200);
    expect(saved.headers['content-type']).toMatch(/^text\/html/);
    expect(saved.body).toContain('Saved to your wallet');
    expect(saved.body).toContain('&lt;script&gt;x&lt;/script&gt; Final');
    expect(saved.body).not.toContain('<script>');
    const missing = await h.request({ method: 'GET', url: '/save/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Pass not found');
  });

  it('pages in pass-id order with an opaque cursor, 100 by default', async () => {
    const token = await setUp();
    // Added in scrambled order: the answer is still ordered by pass id.
    const ids = Array.from({ length: 250 }, (_, n) => id((n * 97) % 250));
    for (const passId of ids) expect((await h.addPass(EMAIL, samplePass({ id: passId }))).statusCode).toBe(201);

    const first = (await h.get('/v1/passes', token)).json();
    expect(first.passes).toHaveLength(100);
    expect(first.passes[0].id).toBe(id(0));
    expect(first.passes[99].id).toBe(id(99));
    expect(first.next_cursor).toEqual(expect.any(String));

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/v1/passes?limit=60${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = (await h.get(url, token)).json() as { passes: { id: string }[]; next_cursor: string | null };
      expect(page.passes.length).toBeLessThanOrEqual(60);
      seen.push(...page.passes.map((pass) => pass.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 250 }, (_, n) => id(n)));
  });

  it('ends with next_cursor null when the last page is exactly full', async () => {
    const token = await setUp();
    for (let n = 0; n < 4; n += 1) await h.addPass(EMAIL, samplePass({ id: id(n) }));
    const first = (await h.get('/v1/passes?limit=2', token)).json();
    expect(first.next_cursor).not.toBeNull();
    const second = (await h.get(`/v1/passes?limit=2&cursor=${first.next_cursor}`, token)).json();
    expect(second.passes.map((pass: { id: string }) => pass.id)).toEqual([id(2), id(3)]);
    expect(second.next_cursor).toBeNull();
  });

  it('keeps paging stable when passes come and go between pages (keyset cursor)', async () => {
    const token = await setUp();
    for (let n = 0; n < 6; n += 1) await h.addPass(EMAIL, samplePass({ id: id(n) }));
    const first = (await h.get('/v1/passes?limit=3', token)).json();
    await h.request({ method: 'DELETE', url: `/control/wallets/${EMAIL}/passes/${id(1)}` });
    await h.addPass(EMAIL, samplePass({ id: id(0) + 'a' }));
    const second = (await h.get(`/v1/passes?limit=3&cursor=${first.next_cursor}`, token)).json();
    expect(second.passes.map((pass: { id: string }) => pass.id)).toEqual([id(3), id(4), id(5)]);
  });

  it.each([
    ['limit=0', 'limit=0'],
    ['limit=201', 'limit=201'],
    ['limit=abc', 'limit=abc'],
    ['limit=1.5', 'limit=1.5'],
    ['two limits', 'limit=1&limit=2'],
    ['a garbage cursor', 'cursor=not-a-cursor'],
    ['a forged cursor', `cursor=${Buffer.from('{"v":2,"after":"x"}').toString('base64url')}`],
    ['an overlong cursor', `cursor=${'a'.repeat(600)}`],
  ])('answers 400 invalid_request for %s', async (_label, query) => {
    const token = await setUp();
    const res = await h.get(`/v1/passes?${query}`, token);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  it('lists a pass only once its arrival delay has passed (random up to arrivalDelayMaxMs)', async () => {
    // random() = 0.5: a pass without visible_after_ms arrives after half of arrivalDelayMaxMs.
    const token = await setUp({ arrivalDelayMaxMs: 10_000 });
    const added = await h.addPass(EMAIL, samplePass({ id: 'late', visible_after_ms: undefined }));
    expect(added.json().visible_at).toBe(new Date(h.now() + 5_000).toISOString());
    expect((await h.get('/v1/passes', token)).json().passes).toEqual([]);
    h.advance(4_999);
    expect((await h.get('/v1/passes', token)).json().passes).toEqual([]);
    h.advance(1);
    const passes = (await h.get('/v1/passes', token)).json().passes;
    expect(passes.map((pass: { id: string }) => pass.id)).toEqual(['late']);
    // It changed (arrived) when it became visible.
    expect(passes[0].updated_at).toBe(new Date(h.now()).toISOString());
  });

  it('honours an explicit visible_after_ms and defaults to up to 15 minutes', async () => {
    const token = await setUp({ random: () => 0.999 });
    await h.addPass(EMAIL, samplePass({ id: 'explicit', visible_after_ms: 2_000 }));
    const random = await h.addPass(EMAIL, samplePass({ id: 'random', visible_after_ms: undefined }));
    const delay = Date.parse(random.json().visible_at) - h.now();
    expect(delay).toBeGreaterThan(14 * 60_000);
    expect(delay).toBeLessThan(15 * 60_000);
    h.advance(2_000);
    expect((await h.get('/v1/passes', token)).json().passes.map((pass: { id: string }) => pass.id)).toEqual([
      'explicit',
    ]);
    h.advance(15 * 60_000);
    expect((await h.get('/v1/passes', token)).json().passes).toHaveLength(2);
  });

  it('shows arrival to the control API before the provider API (GET /control/wallets/:email/passes)', async () => {
    await setUp();
    await h.addPass(EMAIL, samplePass({ id: 'soon', visible_after_ms: 60_000 }));
    const res = await h.get(`/control/wallets/${EMAIL}/passes`);
    expect(res.json().passes).toEqual([
      expect.objectContaining({ id: 'soon', visible_at: new Date(h.now() + 60_000).toISOString() }),
    ]);
  });

  it('moves updated_at when a pass changes (PATCH) and keeps its id', async () => {
    const token = await setUp();
    await h.addPass(EMAIL, samplePass({ id: 'p1' }));
    h.advance(1_000);
    const patch = await h.request({
      method: 'PATCH',
      url: `/control/wallets/${EMAIL}/passes/p1`,
      payload: { next_game: { title: 'Rearranged', date: '2026-12-01T19:45:00+01:00' }, event: { subtitle: 'New' } },
    });
    expect(patch.statusCode).toBe(200);
    const pass = (await h.get('/v1/passes', token)).json().passes[0];
    expect(pass).toMatchObject({
      id: 'p1',
      event: { title: 'Harbourside Athletic vs Northgate Rovers', subtitle: 'New' },
      next_game: { title: 'Rearranged', date: '2026-12-01T18:45:00.000Z' },
      updated_at: new Date(h.now()).toISOString(),
    });
  });
});
