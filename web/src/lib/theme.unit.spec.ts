import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseThemeChoice, resolveTheme, THEME_STORAGE_KEY, type Theme } from './theme';

const BOOT = readFileSync(new URL('../theme-boot.js', import.meta.url), 'utf8');

/** Runs theme-boot.js as the page runs it, against a stored value (or a refusing storage) and the system's setting. */
function bootTheme(stored: string | null | 'refused', systemDark: boolean): Theme {
  const classes = new Set<string>();
  const window = {
    localStorage: {
      getItem(key: string) {
        if (stored === 'refused') throw new Error('SecurityError');
        return key === THEME_STORAGE_KEY ? stored : null;
      },
    },
    matchMedia: (query: string) => ({ matches: query === '(prefers-color-scheme: dark)' && systemDark }),
  };
  const document = {
    documentElement: {
      classList: { toggle: (name: string, on: boolean) => (on ? classes.add(name) : classes.delete(name)) },
    },
  };
  runInNewContext(BOOT, { window, document });
  return classes.has('dark') ? 'dark' : 'light';
}

describe('the theme', () => {
  it('follows the system unless light or dark was chosen', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('reads anything but light or dark as following the system', () => {
    expect(parseThemeChoice('light')).toBe('light');
    expect(parseThemeChoice('dark')).toBe('dark');
    for (const stored of [null, '', 'system', 'Dark', 'sepia']) expect(parseThemeChoice(stored)).toBe('system');
  });

  it('is set before the first paint (theme-boot.js) exactly as the app sets it afterwards', () => {
    for (const stored of [null, 'light', 'dark', 'system', 'sepia']) {
      for (const systemDark of [false, true]) {
        expect(bootTheme(stored, systemDark), `stored ${stored}, system dark ${systemDark}`).toBe(
          resolveTheme(parseThemeChoice(stored), systemDark),
        );
      }
    }
  });

  it('follows the system when storage is refused', () => {
    expect(bootTheme('refused', true)).toBe('dark');
    expect(bootTheme('refused', false)).toBe('light');
  });
});
