import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../infra/config/config.js';
import { freePort } from './ports.js';

/** An API process of its own (the built `main.api.js`), to stop, pause and kill as a real one would be. */
export interface ApiProcess {
  baseUrl: string;
  child: ChildProcess;
  /** What it wrote to stdout and stderr so far. */
  output(): string;
  /** Sends a signal (SIGSTOP pauses it, SIGCONT resumes it); SIGKILL resolves once it has exited. */
  signal(signal: NodeJS.Signals): Promise<void>;
  /** Ends it (SIGTERM, then SIGKILL after 5 s) and waits for its exit. */
  stop(): Promise<void>;
}

const DIST = path.resolve(import.meta.dirname, '../../dist');

/** The environment that gives another process the same configuration as `config` (its database, Redis, prefix). */
export function environmentOf(config: AppConfig): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(key)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') env[key] = String(value);
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) env[key] = value.join(',');
  }
  env.WALLET_PROVIDER_URL = config.walletProviderUrl;
  env.WALLET_SYNC_FOLLOW_UPS_MS = config.walletSyncFollowUpsMs.join(',');
  env.WEB_DIST = config.webDist ?? '';
  return env;
}

/** A built process's whole environment for `config`: its settings, and this process's PATH. */
const processEnvironmentOf = (config: AppConfig) => ({ PATH: process.env.PATH ?? '', ...environmentOf(config) });

/** Starts the API (`services/server/dist`, built by `npm run build:server`) on a free port with `config`'s settings. */
export async function startApiProcess(config: AppConfig, env: Record<string, string> = {}): Promise<ApiProcess> {
  const port = await freePort();
  return startBuilt('main.api.js', 'API', `http://127.0.0.1:${port}`, '/health', {
    ...processEnvironmentOf(config),
    PORT: String(port),
    HOST: '127.0.0.1',
    ...env,
  });
}

/**
 * Starts a worker (subscriptions, mail, jobs; the built `main.worker.js`) with `config`'s settings; its `baseUrl` is its
 * metrics server's.
 */
export async function startWorkerProcess(config: AppConfig, env: Record<string, string> = {}): Promise<ApiProcess> {
  const port = await freePort();
  return startBuilt('main.worker.js', 'worker', `http://127.0.0.1:${port}`, '/metrics', {
    ...processEnvironmentOf(config),
    METRICS_PORT: String(port),
    ...env,
  });
}

/**
 * Starts the whole product as `npm start` runs it (the built `main.js`: API, subscriptions, jobs, the mounted simulator)
 * with `env` as its whole environment — nothing of this process's is passed on, so a DATABASE_URL or REDIS_URL of the
 * test run reaches it only when given. Without DATABASE_URL it runs its embedded PostgreSQL server under DATA_DIR,
 * whose first start creates the cluster: hence the longer bound on the start.
 */
export async function startProductProcess(
  env: Record<string, string> & { PORT: string },
  startTimeoutMs = 120_000,
): Promise<ApiProcess> {
  return startBuilt('main.js', 'product', `http://127.0.0.1:${env.PORT}`, '/health', env, startTimeoutMs);
}

async function startBuilt(
  entry: string,
  what: string,
  baseUrl: string,
  readyPath: string,
  env: Record<string, string>,
  startTimeoutMs = 60_000,
): Promise<ApiProcess> {
  const file = path.join(DIST, entry);
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build:server first`);
  const child = spawn(process.execPath, [file], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ${what} process exited at start:\n${output}`);
    const up = await fetch(`${baseUrl}${readyPath}`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the ${what} process did not answer within ${startTimeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(sig);
    if (sig === 'SIGKILL') await exited;
  };
  return {
    baseUrl,
    child,
    output: () => output,
    signal,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
