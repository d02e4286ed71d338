// Whether the built dashboard (web/dist) is the build of the web sources as they are now: a SHA-256 of every input
// of the web build, kept in web/dist beside what it describes. A build empties web/dist first, so a build made any
// other way (`vite build` by hand, with other settings) leaves no stamp, and the next start builds again.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The stamp's file, in the build output. Servers never answer it (a dotfile: the API and nginx refuse them). */
export const STAMP_FILE = '.build-inputs';

/**
 * What a web build reads, relative to the repository root: the web app's sources and public files, every file at the
 * top of web/ (the page, Vite's configuration and its plugins, package.json, the TypeScript options, the `.env` files),
 * the contracts' sources (Vite reads them as source), the base TypeScript options and the lock file (the versions of
 * Vite, React and every other dependency).
 */
export const WEB_INPUTS = [
  'web/src',
  'web/public',
  'services/contracts/src',
  'tsconfig.base.json',
  'package-lock.json',
];

/** The input `relative` (a file or a folder, possibly missing) as the files it is, relative to `root`. */
function filesOf(root, relative) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/**
 * The hash of the web build's inputs: each input file's path and content, and the `VITE_*` variables of the
 * environment (they are compiled into the bundle).
 */
export function webInputsHash(root, env = process.env) {
  const hash = createHash('sha256');
  const files = [];
  for (const input of WEB_INPUTS) files.push(...filesOf(root, input));
  const webDir = path.join(root, 'web');
  if (existsSync(webDir)) {
    for (const entry of readdirSync(webDir, { withFileTypes: true })) {
      if (entry.isFile()) files.push(path.join('web', entry.name));
    }
  }
  for (const file of [...new Set(files)].sort()) {
    hash.update(`file ${file.split(path.sep).join('/')}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  for (const name of Object.keys(env).sort()) {
    if (name.startsWith('VITE_')) hash.update(`env ${name}=${env[name]}\0`);
  }
  return hash.digest('hex');
}

/** True when `distDir` holds a complete build whose stamp is `hash`. */
export function isWebBuildCurrent(distDir, hash) {
  try {
    return (
      existsSync(path.join(distDir, 'index.html')) && readFileSync(path.join(distDir, STAMP_FILE), 'utf8') === hash
    );
  } catch {
    return false;
  }
}

/** Records that `distDir` is the build of the inputs hashed as `hash` (written only after a build succeeded). */
export function stampWebBuild(distDir, hash) {
  writeFileSync(path.join(distDir, STAMP_FILE), hash);
}
