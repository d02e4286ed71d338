import { describe, expect, it } from 'vitest';
import { BULK_LINK_MESSAGES, claimRequestSchema } from './distribution.js';

describe("a claim's body", () => {
  it('takes a claimant name of plain text up to 60 characters, blank as none', () => {
    const name = (value: unknown) => claimRequestSchema.safeParse({ name: value });
    expect(name('  Sam  ').data?.name).toBe('Sam');
    expect(name('   ').data?.name).toBeNull();
    expect(name(undefined).data?.name).toBeNull();
    expect(name('é'.repeat(60)).success).toBe(true);
    for (const bad of ['x'.repeat(61), 'a\u0000b', 'a\u202Eb', 'a\u2066b', 7, {}])
      expect(name(bad).success).toBe(false);
  });
});

describe('bulk answers', () => {
  it('group counts of links in thousands', () => {
    expect(BULK_LINK_MESSAGES.recalled(1)).toBe('1 link recalled');
    expect(BULK_LINK_MESSAGES.updated(3)).toBe('3 links updated');
    expect(BULK_LINK_MESSAGES.recalled(1000)).toBe('1,000 links recalled');
  });
});
