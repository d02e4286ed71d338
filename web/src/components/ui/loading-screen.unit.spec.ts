import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const read = (file: string) => readFileSync(path.resolve(import.meta.dirname, file), 'utf8');

describe('the start-up screen', () => {
  it('is painted by index.html before any script, as the app draws it (the same element, classes and text)', () => {
    const page = /<div id="root">\s*<div role="status" class="([^"]+)">Loading\.\.\.<\/div>\s*<\/div>/.exec(
      read('../../../index.html'),
    );
    const component = /<div role="status" className="([^"]+)">\s*Loading\.\.\.\s*<\/div>/.exec(
      read('./loading-screen.tsx'),
    );
    expect(page?.[1]).toBeDefined();
    expect(page?.[1]).toBe(component?.[1]);
  });
});
