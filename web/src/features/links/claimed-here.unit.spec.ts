import { beforeEach, describe, expect, it } from 'vitest';
import { claimedHere, rememberClaim } from './claimed-here';

/** The browser's storage as the page uses it (Node has none): strings by key. */
class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  clear() {
    this.items.clear();
  }
}
(globalThis as unknown as { window: { localStorage: MemoryStorage } }).window = { localStorage: new MemoryStorage() };

const code = (i: number) => `code${String(i).padStart(18, '0')}`;

describe('claims remembered on this device', () => {
  beforeEach(() => window.localStorage.clear());

  it('answers the claim of a link this device made, and none for another link', () => {
    rememberClaim(code(1), 'https://wallet.example/save/1', new Date('2026-12-07T18:02:00Z'));
    expect(claimedHere(code(1))).toEqual({
      walletUrl: 'https://wallet.example/save/1',
      at: '2026-12-07T18:02:00.000Z',
    });
    expect(claimedHere(code(2))).toBeNull();
  });

  it('keeps only the newest 50 links', () => {
    for (let i = 0; i < 60; i++) rememberClaim(code(i), `https://wallet.example/save/${i}`);
    expect(claimedHere(code(9))).toBeNull();
    expect(claimedHere(code(10))?.walletUrl).toBe('https://wallet.example/save/10');
    expect(claimedHere(code(59))?.walletUrl).toBe('https://wallet.example/save/59');
  });

  it('answers nothing for spoiled storage or an address that is not a web one', () => {
    window.localStorage.setItem('seatlink.claimed', '{not json');
    expect(claimedHere(code(1))).toBeNull();
    window.localStorage.setItem(
      'seatlink.claimed',
      JSON.stringify({ [code(1)]: { walletUrl: 'javascript:alert(1)', at: '2026-12-07T18:02:00Z' } }),
    );
    expect(claimedHere(code(1))).toBeNull();
    window.localStorage.setItem('seatlink.claimed', JSON.stringify([1, 2]));
    expect(claimedHere(code(1))).toBeNull();
  });
});
