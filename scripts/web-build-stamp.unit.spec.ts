import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWebBuildCurrent, stampWebBuild, webInputsHash } from './web-build-stamp.js';

/** `npm start` skips the web build exactly when nothing the build reads has changed since the build in web/dist. */
describe('the web build stamp', () => {
  let root: string;
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'seatlink-stamp-'));
    write('web/src/main.tsx', 'render();');
    write('web/src/features/tickets/list.tsx', 'export {};');
    write('web/index.html', '<div id="root"></div>');
    write('services/contracts/src/index.ts', 'export {};');
    write('package-lock.json', '{}');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is the same for the same inputs, and changes with a source, the contracts, the lock file, Vite settings or a new file', () => {
    const before = webInputsHash(root, {});
    expect(webInputsHash(root, {})).toBe(before);
    for (const [file, text] of [
      ['web/src/features/tickets/list.tsx', 'export const x = 1;'],
      ['services/contracts/src/index.ts', 'export const y = 1;'],
      ['package-lock.json', '{"v":2}'],
      ['web/public/robots.txt', 'User-agent: *'],
      ['web/.env.production', 'VITE_API_URL=https://api.example'],
      ['web/vite.plugins.ts', 'export {};'],
    ] as const) {
      const previous = webInputsHash(root, {});
      write(file, text);
      expect(webInputsHash(root, {}), file).not.toBe(previous);
    }
  });

  it('tells a file moved from one folder to another, and the VITE_ variables the bundle compiles in', () => {
    const before = webInputsHash(root, {});
    rmSync(path.join(root, 'web/src/features/tickets/list.tsx'));
    write('web/src/features/list.tsx', 'export {};');
    expect(webInputsHash(root, {})).not.toBe(before);
    const plain = webInputsHash(root, { PATH: '/bin' });
    expect(webInputsHash(root, { PATH: '/usr/bin' })).toBe(plain);
    expect(webInputsHash(root, { VITE_API_URL: 'https://api.example' })).not.toBe(plain);
  });

  it('holds a build current only with its index.html and the stamp of these very inputs', () => {
    const dist = path.join(root, 'web/dist');
    const hash = webInputsHash(root, {});
    expect(isWebBuildCurrent(dist, hash)).toBe(false);
    mkdirSync(dist);
    stampWebBuild(dist, hash);
    expect(isWebBuildCurrent(dist, hash)).toBe(false);
    write('web/dist/index.html', '<!doctype html>');
    expect(isWebBuildCurrent(dist, hash)).toBe(true);
    write('web/src/main.tsx', 'render(<App />);');
    expect(isWebBuildCurrent(dist, webInputsHash(root, {}))).toBe(false);
  });
});
