import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CLUBS, DEMO_WALLETS, demoPassId, seasonLabel } from './demo-data.js';
import { harness, type Harness, T0 } from './testing/sim-harness.js';

interface ApiPass {
  id: string;
  barcode: string;
  event: { title: string; subtitle: string; logo_url: string };
  venue: { name: string };
  seat: { section: string; row: string; seat: string } | null;
  next_game: { title: string; date: string } | null;
}

describe('wallet-sim demo data', () => {
  let h: Harness;
  afterEach(async () => {
    await h.app.close();
  });

  async function passesOf(email: string): Promise<ApiPass[]> {
    const wallet = DEMO_WALLETS.find((candidate) => candidate.email === email)!;
    const token = await h.login(wallet.email, wallet.password);
    return (await h.get('/v1/passes', token)).json().passes;
  }

  it('seeds three wallets with the documented logins and a few dozen passes', async () => {
    h = harness({ seedDemo: true });
    expect(DEMO_WALLETS.map((wallet) => [wallet.email, wallet.password])).toEqual([
      ['alex@wallet.test', 'Wallet123!'],
      ['sam@wallet.test', 'Wallet123!'],
      ['jordan@wallet.test', 'Wallet123!'],
    ]);
    const wallets = (await h.get('/control/wallets')).json().wallets as { passes: number; visible_passes: number }[];
    const total = wallets.reduce((sum, wallet) => sum + wallet.passes, 0);
    const visible = wallets.reduce((sum, wallet) => sum + wallet.visible_passes, 0);
    expect(total).toBeGreaterThanOrEqual(24);
    expect(total - visible).toBeGreaterThanOrEqual(3); // a few still arriving
    expect(visible).toBeGreaterThan(total / 2);
  });

  it('holds six clubs of two sports, with realistic passes, dates in the coming weeks', async () => {
    h = harness({ seedDemo: true });
    expect(new Set(DEMO_CLUBS.map((club) => club.sport))).toEqual(new Set(['football', 'basketball']));
    expect(DEMO_CLUBS).toHaveLength(6);
    h.advance(20 * 60_000); // everything has arrived
    const all = [
      ...(await passesOf('alex@wallet.test')),
      ...(await passesOf('sam@wallet.test')),
      ...(await passesOf('jordan@wallet.test')),
    ];
    const venues = new Set(DEMO_CLUBS.map((club) => club.venue));
    for (const pass of all) {
      expect(venues.has(pass.venue.name)).toBe(true);
      expect(pass.event.logo_url).toMatch(/^http:\/\/localhost:80\/logos\/[a-z-]+\.svg$/);
      if (pass.next_game) {
        const date = Date.parse(pass.next_game.date);
        expect(date).toBeGreaterThan(T0);
        expect(date).toBeLessThan(T0 + 40 * 86_400_000);
      }
    }
    expect(all.some((pass) => pass.seat === null)).toBe(true);
    expect(all.some((pass) => pass.next_game === null)).toBe(true);
    expect(all.some((pass) => pass.event.subtitle === `Season Ticket ${seasonLabel(T0)}`)).toBe(true);
    expect(all.some((pass) => /Premier Division · Matchday \d+/.test(pass.event.subtitle))).toBe(true);
  });

  it('puts some passes in two wallets (by pass id, and by barcode)', async () => {
    h = harness({ seedDemo: true });
    h.advance(20 * 60_000);
    const holders = new Map<string, number>();
    const barcodes = new Map<string, Set<string>>();
    for (const wallet of DEMO_WALLETS) {
      for (const pass of await passesOf(wallet.email)) {
        holders.set(pass.id, (holders.get(pass.id) ?? 0) + 1);
        barcodes.set(pass.barcode, new Set([...(barcodes.get(pass.barcode) ?? []), pass.id]));
      }
    }
    expect([...holders.values()].filter((count) => count > 1).length).toBeGreaterThanOrEqual(2);
    expect([...barcodes.values()].some((passIds) => passIds.size > 1)).toBe(true);
  });

  it('lets passes arrive over the next minutes', async () => {
    h = harness({ seedDemo: true });
    const before = (await passesOf('alex@wallet.test')).length;
    h.advance(15 * 60_000);
    expect((await passesOf('alex@wallet.test')).length).toBeGreaterThan(before);
  });

  it('keeps pass ids stable across restarts and seeds again on reset', async () => {
    h = harness({ seedDemo: true });
    const first = (await passesOf('sam@wallet.test')).map((pass) => pass.id);
    expect(first).toContain(demoPassId('sam-nr-season-1'));
    await h.request({ method: 'POST', url: '/control/reset' });
    expect((await passesOf('sam@wallet.test')).map((pass) => pass.id)).toEqual(first);
    await h.app.close();
    h = harness({ seedDemo: true });
    expect((await passesOf('sam@wallet.test')).map((pass) => pass.id)).toEqual(first);
  });

  it('labels the season from the clock', () => {
    expect(seasonLabel(Date.UTC(2026, 10, 22))).toBe('2026/27');
    expect(seasonLabel(Date.UTC(2027, 2, 1))).toBe('2026/27');
    expect(seasonLabel(Date.UTC(2099, 6, 1))).toBe('2099/00');
  });
});
