// `npm run build` and `npm start`: builds what changed since the last build, and nothing when nothing did.
//   node scripts/build.js            the server side (contracts, wallet-sim, server) and the dashboard
//   node scripts/build.js --force    the same, built afresh
// The server side is one `tsc -b`, incremental through the tsbuildinfo files it keeps beside each project: with no
// source changed it only compares them. The dashboard is built by Vite only when its inputs (web-build-stamp.js)
// differ from those of the build in web/dist.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWebBuildCurrent, stampWebBuild, STAMP_FILE, webInputsHash } from './web-build-stamp.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');
const require = createRequire(import.meta.url);

function run(label, command, args) {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${label}: build failed`);
    process.exit(result.status ?? 1);
  }
  return ((performance.now() - started) / 1000).toFixed(1);
}

// The server references the contracts and the simulator: `tsc -b` builds all three, each only when it changed.
const tsc = require.resolve('typescript/bin/tsc');
const serverSeconds = run('server', process.execPath, [tsc, '-b', 'services/server', ...(force ? ['--force'] : [])]);
console.log(`server: built what changed (tsc -b, ${serverSeconds} s)`);

const dist = path.join(root, 'web', 'dist');
const inputs = webInputsHash(root);
if (!force && isWebBuildCurrent(dist, inputs)) {
  console.log(`web: up to date (its inputs are those of the build in web/dist), not built`);
} else {
  // A build that fails half-way must not leave the stamp of the previous one behind.
  rmSync(path.join(dist, STAMP_FILE), { force: true });
  const npm = process.env.npm_execpath;
  const webSeconds = npm
    ? run('web', process.execPath, [npm, 'run', 'build', '--silent', '-w', '@seatlink/web'])
    : run('web', 'npm', ['run', 'build', '--silent', '-w', '@seatlink/web']);
  stampWebBuild(dist, inputs);
  console.log(`web: built (${webSeconds} s)`);
}
