import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTROL_KEY_FILE, storedControlKey } from './control-key.js';

describe('the control key kept in a data directory', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is made once (mode 600) and read back the same on later starts', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sim-key-'));
    const first = storedControlKey(path.join(dir, 'data'));
    expect(first.created).toBe(true);
    expect(first.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.file).toBe(path.join(dir, 'data', CONTROL_KEY_FILE));
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    const again = storedControlKey(path.join(dir, 'data'));
    expect(again).toEqual({ ...first, created: false });
  });

  it('tightens a file left readable by others, and refuses one holding a short key', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sim-key-'));
    const file = path.join(dir, CONTROL_KEY_FILE);
    writeFileSync(file, 'a-key-written-by-hand-0001\n', { mode: 0o644 });
    expect(storedControlKey(dir)).toEqual({ key: 'a-key-written-by-hand-0001', file, created: false });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(file, 'short\n');
    expect(() => storedControlKey(dir)).toThrow(/control key/);
  });
});
