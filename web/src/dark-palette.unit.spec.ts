import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import colors from 'tailwindcss/colors';
import { describe, expect, it } from 'vitest';

/**
 * The dark palette (dark-palette.css) is Tailwind's own palette with the shades moved: each value there must be the
 * one of the shade its comment names, and every colour family the app draws with must be remapped, or that colour
 * would stay as it is in light mode on a dark page.
 */
const SRC = path.dirname(new URL(import.meta.url).pathname);
const css = readFileSync(path.join(SRC, 'dark-palette.css'), 'utf8');
const darkBlock = css.slice(css.indexOf(':root.dark {'), css.indexOf('}', css.indexOf(':root.dark {')));
const dark = new Map([...darkBlock.matchAll(/--color-([a-z]+(?:-\d+)?):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!]));

const SHADES = ['50', '100', '200', '300', '400', '500', '600', '700', '800', '900', '950'] as const;
type Shade = (typeof SHADES)[number];
/** slate: surfaces and text. */
const NEUTRAL: Record<Shade, Shade> = {
  '50': '950',
  '100': '800',
  '200': '700',
  '300': '600',
  '400': '500',
  '500': '400',
  '600': '300',
  '700': '200',
  '800': '100',
  '900': '50',
  '950': '50',
};
const COLOURED: Record<Shade, Shade> = {
  '50': '950',
  '100': '900',
  '200': '800',
  '300': '700',
  '400': '500',
  '500': '300',
  '600': '400',
  '700': '300',
  '800': '200',
  '900': '100',
  '950': '50',
};
const palette = colors as unknown as Record<string, Record<Shade, string>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) && !name.includes('.spec.') ? [file] : [];
  });
}

describe('the dark palette', () => {
  it('gives each slate shade the value of its opposite, and white the cards’ slate-900', () => {
    expect(dark.get('white')).toBe(palette.slate!['900']);
    for (const shade of SHADES)
      expect(dark.get(`slate-${shade}`), `slate-${shade}`).toBe(palette.slate![NEUTRAL[shade]]);
  });

  it('moves every shade of the coloured families as documented', () => {
    const families = new Set(
      [...dark.keys()].map((key) => key.split('-')[0]!).filter((f) => f !== 'slate' && f !== 'white'),
    );
    expect(families.size).toBeGreaterThan(0);
    for (const family of families) {
      for (const shade of SHADES) {
        expect(dark.get(`${family}-${shade}`), `${family}-${shade}`).toBe(palette[family]![COLOURED[shade]]);
      }
    }
  });

  it('covers every colour family the app draws with', () => {
    const used = new Set<string>();
    const utility =
      /\b(?:bg|text|border|ring|outline|fill|stroke|from|via|to|divide|accent|decoration|shadow|caret)-([a-z]+)-\d{2,3}\b/g;
    for (const file of sourceFiles(SRC)) {
      for (const match of readFileSync(file, 'utf8').matchAll(utility)) if (match[1]! in palette) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(3);
    const missing = [...used].filter((family) => !dark.has(`${family}-500`));
    expect(missing, 'colour families with no dark shades in dark-palette.css').toEqual([]);
  });
});
