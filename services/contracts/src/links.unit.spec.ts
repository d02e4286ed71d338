import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('links.ts', () => {
  it('brings no schema library along: the recipient’s page imports it alone (only types come from elsewhere)', () => {
    const source = readFileSync(path.join(import.meta.dirname, 'links.ts'), 'utf8');
    const imports = source.split('\n').filter((line) => /^\s*(import|export) .* from /.test(line));
    for (const line of imports) expect(line, line).toMatch(/^\s*(import|export) type /);
  });
});
