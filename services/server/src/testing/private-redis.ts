import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { Socket } from 'node:net';
import { freePort } from './ports.js';

/** A Redis server of this test's own, to stop and start again (the shared one must stay up for everyone else). */
export interface PrivateRedis {
  url: string;
  /** Kills the server at once (SIGKILL: no goodbye to its clients). */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing on disk). */
  start(): Promise<void>;
  /** Stops it without closing anything (SIGSTOP): connections stay open and nothing is answered — a hung Redis. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
}

/** True when a `redis-server` binary is on the PATH. */
export const hasRedisServer = () => spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100 && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 50));
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  const signal = (sig: NodeJS.Signals) => {
    const running: ChildProcess | null = child;
    if (running && running.exitCode === null) running.kill(sig);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    kill: async () => {
      signal('SIGCONT');
      await kill();
    },
    start,
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
  };
}
