import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';

/** The repository's root, and the built server (the browser tests run what `npm run build` made). */
export const root = path.resolve(import.meta.dirname, '../../..');
export const serverDist = path.join(root, 'services/server/dist');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function adminQuery(baseUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve(child.exitCode)
      : child.once('exit', (code) => resolve(code)),
  );
}

/** Waits until `url/health` answers 200 (the process is up and its database reachable). */
export async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server at ${url} did not become healthy`);
}

/** A node process of the built product, its output kept (and echoed with E2E_VERBOSE). */
export interface RunningProcess {
  name: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
}

export function runNode(script: string, env: NodeJS.ProcessEnv, name: string): RunningProcess {
  const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const prefix = `[${name}] `;
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
    if (process.env.E2E_VERBOSE) process.stdout.write(prefix + d.toString());
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
    process.stderr.write(prefix + d.toString());
  });
  return { name, child, output: () => output };
}
