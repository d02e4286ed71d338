import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * link.css builds Tailwind's utilities from the files it names (`@source`) alone: a component the link page starts to
 * use, left out there, would show unstyled on that page only. Every file the page's entry (link-main.tsx) imports,
 * directly or not, that writes a class must be among them.
 */
const SRC = path.dirname(new URL(import.meta.url).pathname);

/** The app's own files `file` imports (relative imports), resolved as the bundler does. */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s+'(\.{1,2}\/[^']+)'/g)].flatMap(([, spec]) => {
    const base = path.resolve(path.dirname(file), spec!);
    const found = [base, `${base}.tsx`, `${base}.ts`, path.join(base, 'index.ts')].find(
      (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
    );
    return found ? [found] : [];
  });
}

/** The entry and every file it reaches. */
function graphOf(entry: string): string[] {
  const seen = new Set<string>([entry]);
  for (const file of seen) for (const next of localImports(file)) seen.add(next);
  return [...seen];
}

/** What link.css names: files and folders (a `{a,b}` group stands for each of its names). */
function sources(): string[] {
  const css = readFileSync(path.join(SRC, 'link.css'), 'utf8');
  return [...css.matchAll(/@source '([^']+)';/g)].flatMap(([, spec]) => {
    const group = /\{([^}]+)\}/.exec(spec!);
    const specs = group ? group[1]!.split(',').map((name) => spec!.replace(group[0], name)) : [spec!];
    return specs.map((s) => path.resolve(SRC, s));
  });
}

describe('the link page’s stylesheet', () => {
  const named = sources();
  const covered = (file: string) => named.some((s) => file === s || file.startsWith(`${s}${path.sep}`));
  const graph = graphOf(path.join(SRC, 'link-main.tsx'));

  it('reaches the page and its components from the entry', () => {
    expect(graph).toContain(path.join(SRC, 'features/links/link.page.tsx'));
    expect(graph).toContain(path.join(SRC, 'components/ui/button.tsx'));
  });

  it('names every file of the page that writes a class', () => {
    const styled = graph.filter((file) => /\.tsx?$/.test(file) && /\bclass(Name)?=/.test(readFileSync(file, 'utf8')));
    expect(styled.filter((file) => !covered(file)).map((file) => path.relative(SRC, file))).toEqual([]);
  });

  it('names only what is there', () => {
    for (const source of named) expect(existsSync(source), source).toBe(true);
  });
});
