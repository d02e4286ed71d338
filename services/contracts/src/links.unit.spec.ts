import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { letsSeveralSave, SEAT_SHARING_WARNING } from './links.js';

describe('links.ts', () => {
  it('brings no schema library along: the recipient’s page imports it alone (only types come from elsewhere)', () => {
    const source = readFileSync(path.join(import.meta.dirname, 'links.ts'), 'utf8');
    const imports = source.split('\n').filter((line) => /^\s*(import|export) .* from /.test(line));
    for (const line of imports) expect(line, line).toMatch(/^\s*(import|export) type /);
  });
});

describe('a link that more than one person can save its seat with (letsSeveralSave)', () => {
  it('is one without a limit (null, or 0) or with a limit above 1; a limit of 1 is not', () => {
    expect(letsSeveralSave(null)).toBe(true);
    expect(letsSeveralSave(undefined)).toBe(true);
    expect(letsSeveralSave(0)).toBe(true);
    expect(letsSeveralSave(1)).toBe(false);
    expect(letsSeveralSave(2)).toBe(true);
    expect(letsSeveralSave(1_000_000)).toBe(true);
    expect(SEAT_SHARING_WARNING).toBe('More than one person can save this seat with this link.');
  });
});
