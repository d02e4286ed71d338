import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MIN_CONTROL_KEY_LENGTH, newControlKey } from './config.js';

/** The file a data directory keeps the simulator's control key in. */
export const CONTROL_KEY_FILE = 'wallet-sim-control.key';

export interface StoredControlKey {
  key: string;
  /** Where it is kept. */
  file: string;
  /** True when this call made it (the caller prints it, this once). */
  created: boolean;
}

/**
 * The control key kept in `dataDir` (`wallet-sim-control.key`, mode 600): read when it is there, else made once.
 * Two processes starting together on one directory agree on one key: it is written whole to a file of its own, then
 * linked into place, which fails when the other process's is there already.
 */
export function storedControlKey(dataDir: string): StoredControlKey {
  const file = path.join(dataDir, CONTROL_KEY_FILE);
  let created = false;
  mkdirSync(dataDir, { recursive: true });
  const draft = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(draft, `${newControlKey()}\n`, { mode: 0o600, flag: 'wx' });
    linkSync(draft, file);
    created = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(draft, { force: true });
  }
  // A file made by hand (or by another tool) with a looser mode is tightened: the key opens the control API.
  chmodSync(file, 0o600);
  const key = readFileSync(file, 'utf8').trim();
  if (key.length < MIN_CONTROL_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new Error(`${file}: a control key of at least ${MIN_CONTROL_KEY_LENGTH} visible ASCII characters`);
  }
  return { key, file, created };
}
