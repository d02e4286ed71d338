import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { walletSimControlKey } from './wallet-sim.mount.js';

describe('the mounted simulator’s control key', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is made once in DATA_DIR (mode 600) when none is given, and read back on later starts', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'seatlink-sim-key-'));
    const config = loadConfig({ DATA_DIR: dir });
    const first = await walletSimControlKey(config);
    expect(first.file).toBe(path.join(dir, 'wallet-sim-control.key'));
    expect(statSync(first.file!).mode & 0o777).toBe(0o600);
    expect(first.key.length).toBeGreaterThanOrEqual(32);
    expect(await walletSimControlKey(config)).toEqual(first);
  });

  it('is WALLET_SIM_CONTROL_KEY when given (nothing written), and one of its own for a database in memory', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'seatlink-sim-key-'));
    const given = 'a-key-given-by-the-operator';
    expect(await walletSimControlKey(loadConfig({ DATA_DIR: dir, WALLET_SIM_CONTROL_KEY: given }))).toEqual({
      key: given,
      file: null,
    });
    expect(() => statSync(path.join(dir, 'wallet-sim-control.key'))).toThrow();
    const memory = await walletSimControlKey(loadConfig({ DATA_DIR: 'memory://' }));
    expect(memory.file).toBeNull();
    expect(memory.key.length).toBeGreaterThanOrEqual(32);
  });
});
