import { describe, expect, it } from 'vitest';
import { PasswordHasher } from './password-hasher.js';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher();

  it('hashes with argon2id at OWASP ASVS level 2 parameters or above (m >= 19 MiB, t >= 2)', async () => {
    const hash = await hasher.hash('Str0ng!pass');
    const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash);
    expect(match, hash).not.toBeNull();
    expect(Number(match![1])).toBeGreaterThanOrEqual(19 * 1024);
    expect(Number(match![2])).toBeGreaterThanOrEqual(2);
  });

  it('salts each hash, verifies the right password and refuses a wrong one or a malformed hash', async () => {
    const a = await hasher.hash('Str0ng!pass');
    const b = await hasher.hash('Str0ng!pass');
    expect(a).not.toBe(b);
    expect(await hasher.verify(a, 'Str0ng!pass')).toBe(true);
    expect(await hasher.verify(a, 'Str0ng!pasS')).toBe(false);
    expect(await hasher.verify('not-a-hash', 'Str0ng!pass')).toBe(false);
  });
});
