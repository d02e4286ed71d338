import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, it } from 'vitest';
import { testEnv } from './test-database.js';

/*
 * A PostgreSQL cluster of a suite's own: initdb in a temporary directory, started on a free port (trust
 * authentication, TCP on 127.0.0.1 only), stopped and deleted at the end. For what the shared server cannot show: a
 * restore into a fresh cluster, a cluster whose transaction ids have passed 2^32.
 */

const execFileAsync = promisify(execFile);
/** What every throwaway cluster needs. */
const SERVER_TOOLS = ['initdb', 'pg_ctl'] as const;

/** Where the PostgreSQL binaries are, and who runs the server-side ones. */
export interface ClusterToolchain {
  binDir: string;
  /** initdb and postgres refuse to run as root: as root, they run as the postgres OS user (runuser). */
  runAs: 'self' | 'postgres';
}

/**
 * The PostgreSQL binaries (pg_config --bindir, else the newest /usr/lib/postgresql/<n>/bin) that have initdb, pg_ctl
 * and `tools`, and who runs them; or what is missing.
 */
export function findClusterToolchain(tools: readonly string[] = []): ClusterToolchain | { missing: string } {
  const wanted = [...new Set([...SERVER_TOOLS, ...tools])];
  const candidates: string[] = [];
  try {
    candidates.push(
      execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
  } catch {
    // No pg_config on the PATH: look in the Debian layout below.
  }
  try {
    const versions = readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v));
    versions.sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  } catch {
    // Not there either.
  }
  const binDir = candidates.find((dir) => wanted.every((tool) => existsSync(path.join(dir, tool))));
  if (!binDir) return { missing: `the PostgreSQL server binaries (${wanted.join(', ')}; pg_config --bindir)` };
  if (process.getuid?.() !== 0) return { binDir, runAs: 'self' };
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    execFileSync('runuser', ['--help'], { stdio: 'ignore' });
  } catch {
    return { missing: 'a postgres OS user and runuser (initdb refuses to run as root)' };
  }
  return { binDir, runAs: 'postgres' };
}

/**
 * Declares a suite that starts throwaway clusters; `suite` gets the toolchain. Without the binaries (initdb, pg_ctl and
 * `tools`) the suite is skipped, saying why; with CI=true it fails instead: in CI nothing may be skipped, missing
 * binaries are a broken CI image. With `needsServer`, it is also skipped without DATABASE_URL (a real PostgreSQL
 * server; CI's global setup fails without one).
 */
export function describeWithThrowawayCluster(
  title: string,
  options: { tools?: readonly string[]; needsServer?: boolean },
  suite: (toolchain: ClusterToolchain) => void,
): void {
  if (options.needsServer && !testEnv.databaseUrl) {
    describe.skip(`${title} (skipped: needs DATABASE_URL, a real PostgreSQL server)`, () => {
      it('needs a PostgreSQL server', () => {});
    });
    return;
  }
  const toolchain = findClusterToolchain(options.tools);
  if (!('missing' in toolchain)) {
    describe(title, () => suite(toolchain));
  } else if (process.env.CI === 'true') {
    describe(title, () => {
      it('has the PostgreSQL server binaries', () => {
        throw new Error(`CI must provide ${toolchain.missing}`);
      });
    });
  } else {
    describe.skip(`${title} (skipped: needs ${toolchain.missing})`, () => {
      it('needs the PostgreSQL server binaries', () => {});
    });
  }
}

/**
 * Runs a PostgreSQL tool of the toolchain and answers its output; with `asServer`, as the postgres OS user when the
 * tests run as root (initdb, pg_ctl, pg_resetwal: anything that touches the data directory).
 */
export async function runPgTool(
  toolchain: ClusterToolchain,
  tool: string,
  args: readonly string[],
  options: { asServer?: boolean } = {},
): Promise<string> {
  const bin = path.join(toolchain.binDir, tool);
  const [file, argv] =
    options.asServer && toolchain.runAs === 'postgres'
      ? ['runuser', ['-u', 'postgres', '--', bin, ...args]]
      : [bin, [...args]];
  try {
    const { stdout } = await execFileAsync(file, argv, { encoding: 'utf8', timeout: 60_000 });
    return stdout;
  } catch (err) {
    const e = err as Error & { stderr?: string; stdout?: string };
    throw new Error(`${tool} ${args.join(' ')} failed: ${e.message}\n${e.stderr ?? ''}${e.stdout ?? ''}`, {
      cause: err,
    });
  }
}

export interface ThrowawayClusterOptions {
  /** Prefix of the temporary directory's name. */
  name?: string;
  /**
   * The transaction id epoch (pg_resetwal -e, after initdb, before the first start): with epoch n, the 64-bit
   * transaction ids (pg_current_xact_id) start just above n * 2^32, as on a cluster that has run ~4 billion
   * transactions n times.
   */
  xidEpoch?: number;
  /** More server settings (postgres -c name=value), e.g. { max_prepared_transactions: '4' }. */
  settings?: Record<string, string>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * A throwaway cluster. `start()` makes and starts it; `stop()` stops it and deletes its directory, whatever state a
 * start left it in (also one still under way, e.g. after a hook timed out: it waits for it), and may be called more than
 * once. Use: `cluster = new ThrowawayCluster(toolchain); await cluster.start();` in beforeAll, `await cluster?.stop()`
 * in afterAll.
 */
export class ThrowawayCluster {
  private dirPath: string | undefined;
  private portNumber: number | undefined;
  private serverStarted = false;
  private starting: Promise<void> | undefined;
  private readonly clients = new Set<pg.Client>();

  constructor(
    readonly toolchain: ClusterToolchain,
    private readonly options: ThrowawayClusterOptions = {},
  ) {}

  /** The temporary directory (data/ and server.log are in it); other files may go there too, stop() deletes it. */
  get dir(): string {
    if (!this.dirPath) throw new Error('The throwaway cluster is not started');
    return this.dirPath;
  }

  get port(): number {
    if (this.portNumber === undefined || !this.serverStarted) throw new Error('The throwaway cluster is not started');
    return this.portNumber;
  }

  /** The URL of a database of the cluster (as the superuser postgres); `postgres` when none is named. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${encodeURIComponent(database)}`;
  }

  start(): Promise<void> {
    this.starting ??= this.doStart();
    return this.starting;
  }

  private async doStart() {
    const settings = Object.entries(this.options.settings ?? {});
    for (const [name, value] of settings) {
      // pg_ctl hands -o to a shell: only plain names and values.
      if (!/^\w+$/.test(name) || !/^[\w.-]+$/.test(value)) throw new Error(`Unsupported setting ${name}=${value}`);
    }
    const { toolchain } = this;
    this.dirPath = await mkdtemp(path.join(tmpdir(), this.options.name ?? 'seatlink-cluster-'));
    const dir = this.dirPath;
    if (toolchain.runAs === 'postgres') {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      await chown(dir, uid, gid);
    }
    const dataDir = path.join(dir, 'data');
    await runPgTool(
      toolchain,
      'initdb',
      ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync'],
      { asServer: true },
    );
    if (this.options.xidEpoch !== undefined) {
      await runPgTool(toolchain, 'pg_resetwal', ['-e', String(this.options.xidEpoch), dataDir], { asServer: true });
    }
    const port = await freePort();
    const serverOptions = [
      '-c listen_addresses=127.0.0.1',
      `-p ${port}`,
      `-k ${dir}`,
      '-c fsync=off',
      '-c full_page_writes=off',
      ...settings.map(([name, value]) => `-c ${name}=${value}`),
    ].join(' ');
    this.portNumber = port;
    this.serverStarted = true; // From here on, stop() stops it (a failed start stops nothing, harmlessly).
    await runPgTool(
      toolchain,
      'pg_ctl',
      ['-D', dataDir, '-l', path.join(dir, 'server.log'), '-w', '-t', '30', '-o', serverOptions, 'start'],
      { asServer: true },
    );
  }

  /** Creates a database; answers its URL. */
  async createDatabase(name: string): Promise<string> {
    const admin = await this.connect();
    try {
      await admin.query(`create database ${pg.escapeIdentifier(name)}`);
    } finally {
      await admin.end();
    }
    return this.url(name);
  }

  /**
   * A connected client of a database of the cluster, for the caller to end; stop() ends any still open first, so none
   * sees the server go away (an error event nobody listens to would fail the run).
   */
  async connect(database = 'postgres'): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url(database) });
    this.clients.add(client);
    client.on('end', () => this.clients.delete(client));
    client.on('error', () => undefined); // Its queries fail with the error too.
    try {
      await client.connect();
    } catch (err) {
      this.clients.delete(client);
      throw err;
    }
    return client;
  }

  /** One statement on a connection of its own; answers the rows. */
  async query<T extends pg.QueryResultRow>(database: string, text: string, params?: unknown[]): Promise<T[]> {
    const client = await this.connect(database);
    try {
      return (await client.query<T>(text, params)).rows;
    } finally {
      await client.end();
    }
  }

  /**
   * Restarts the server as a crash of it would (`pg_ctl restart -m immediate`): every session is cut without a
   * checkpoint and the new server recovers from the WAL, on the same port and settings (pg_ctl starts it again with
   * the options `postmaster.opts` kept). Resolves once the server takes connections again.
   */
  async restart(): Promise<void> {
    if (!this.serverStarted) throw new Error('The throwaway cluster is not started');
    await runPgTool(
      this.toolchain,
      'pg_ctl',
      [
        '-D',
        path.join(this.dir, 'data'),
        '-l',
        path.join(this.dir, 'server.log'),
        '-m',
        'immediate',
        '-w',
        '-t',
        '60',
        'restart',
      ],
      { asServer: true },
    );
  }

  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined);
    await Promise.all([...this.clients].map((c) => c.end().catch(() => undefined)));
    if (!this.dirPath) return;
    const dataDir = path.join(this.dirPath, 'data');
    if (this.serverStarted) {
      try {
        await runPgTool(this.toolchain, 'pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', '-t', '30', 'stop'], {
          asServer: true,
        });
      } catch {
        // pg_ctl could not stop it (or it never started): end the postmaster this cluster started, if any.
        const pid = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').then(
          (text) => Number(text.split('\n')[0]),
          () => NaN,
        );
        if (Number.isInteger(pid) && pid > 0) {
          try {
            process.kill(pid, 'SIGQUIT');
          } catch {
            // Gone already.
          }
        }
      }
      this.serverStarted = false;
    }
    await rm(this.dirPath, { recursive: true, force: true });
    this.dirPath = undefined;
  }
}
