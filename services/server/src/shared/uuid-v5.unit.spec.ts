import { randomUUID } from 'node:crypto';
import { v5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { uuidV5In } from './uuid-v5.js';

describe('uuidV5In', () => {
  it('answers the very ids of uuid v5, for any name', () => {
    const namespaces = ['1b671a64-40d5-491e-99b0-da01ff1f3341', '4e7a9c12-5b3d-4f8e-a6c1-2d9b0e7f3a58', randomUUID()];
    const names = [
      '',
      'a',
      `${randomUUID()}:wallet-account-${randomUUID()}:0`,
      'pass:é→ü 日本 \u{1F3DF}\uFE0F',
      'x'.repeat(10_000),
      ...Array.from({ length: 200 }, () => `${randomUUID()}:${Math.random()}`),
    ];
    for (const namespace of namespaces) {
      const ours = uuidV5In(namespace);
      for (const name of names) expect(ours(name)).toBe(v5(name, namespace));
    }
  });
});
