import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CLUBS } from './demo-data.js';
import { renderLogo } from './logos.js';
import { harness, type Harness } from './testing/sim-harness.js';

describe('wallet-sim logos', () => {
  let h: Harness;
  afterEach(async () => {
    await h?.app.close();
  });

  it('serves a demo club badge in its colours with its initials, cached a year (it never changes under its name)', async () => {
    h = harness();
    const res = await h.get('/logos/harbourside-athletic.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(res.body).toContain('#0B2545');
    expect(res.body).toContain('#F2C14E');
    expect(res.body).toContain('>HA</text>');
    expect(res.body).toContain('<title>Harbourside Athletic</title>');
  });

  it('draws every demo club (shield for football, ball for basketball)', () => {
    for (const club of DEMO_CLUBS) {
      const svg = renderLogo(club.slug);
      expect(svg).toContain(`>${club.initials}</text>`);
      expect(svg).toContain(club.colors.primary);
      expect(svg).toContain(club.sport === 'basketball' ? '<circle' : '<path d="M64 6');
    }
  });

  it('invents a stable badge for any other slug', async () => {
    h = harness();
    const first = await h.get('/logos/the-riverside-fc.svg');
    const second = await h.get('/logos/the-riverside-fc.svg');
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe(second.body);
    expect(first.body).toContain('>R</text>');
    expect(renderLogo('port-ellery-town')).toContain('>PE</text>');
    expect(renderLogo('port-ellery-town')).not.toBe(renderLogo('port-ellery-city'));
  });

  it.each([
    'Harbourside.svg',
    'harbourside.png',
    'harbourside',
    '..%2Fetc.svg',
    '-x.svg',
    `${'a'.repeat(65)}.svg`,
    'a--b.svg',
  ])('answers 404 for %s', async (file) => {
    h = harness();
    const res = await h.get(`/logos/${file}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });
});
