import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kindOfUnknownPath, WebApp } from './web-app.js';

const hash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
const page = (...scripts: string[]) =>
  `<!doctype html><html><head>${scripts.map((s) => `<script>${s}</script>`).join('')}` +
  `<script type="module" src="/assets/x-Ab12Cd34.js"></script></head><body></body></html>`;

describe('the pages’ inline scripts the Content-Security-Policy allows', () => {
  const dirs: string[] = [];
  const build = (files: Record<string, string>) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'seatlink-web-'));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    return WebApp.load(dir);
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('allows those of both pages, the dashboard’s and the shared ticket’s, each once', () => {
    const theme = "document.documentElement.classList.toggle('dark', true);";
    const other = 'window.linkPageBooted = true;';
    expect(build({ 'index.html': page(theme), 'link.html': page(theme, other) })?.inlineScriptHashes).toEqual([
      hash(theme),
      hash(other),
    ]);
  });

  it('reads the dashboard’s alone from a build without the shared ticket’s page, and nothing without a build', () => {
    expect(build({ 'index.html': page('1;') })?.inlineScriptHashes).toEqual([hash('1;')]);
    expect(build({})).toBeNull();
    expect(WebApp.load(null)).toBeNull();
  });
});

describe('what an address the server has no route for is', () => {
  it.each([
    [`/l/${'A'.repeat(22)}`, 'link-page'],
    [`/L/${'A'.repeat(22)}/?from=mail`, 'link-page'],
    ['/l/not-a-link', 'link-page'],
    ['/l', 'unknown-page'],
    ['/l/', 'unknown-page'],
    [`/l/${'A'.repeat(22)}/extra`, 'unknown-page'],
    ['/login', 'page'],
    ['/dashboard/accounts', 'page'],
    ['/l/a.txt', 'not-a-page'],
    ['/metrics', 'not-a-page'],
    ['/v1/links/x', 'api'],
  ])('%s: %s', (url, kind) => {
    expect(kindOfUnknownPath(url)).toBe(kind);
  });
});
