import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  adminQuery,
  exited,
  freePort,
  root,
  runNode,
  type RunningProcess,
  serverDist,
  waitForHealth,
} from './processes.js';

/**
 * The production shape on this machine: two API processes and two workers of the built product on one PostgreSQL
 * database and one Redis, a wallet simulator, and nginx in front with the very site configuration compose uses
 * (infra/nginx.conf), only its addresses put in for this machine's processes.
 */
export interface Topology {
  /** nginx: where browsers go. */
  baseUrl: string;
  apis: ApiProcess[];
  workers: NodeProcess[];
  simUrl: string;
  simControlKey: string;
  /** The topology's own database (dropped by `stop`). */
  databaseUrl: string;
  /** Starts another worker (after one was killed). */
  startWorker(name: string): Promise<NodeProcess>;
  /** Starts an API process again on the port it had. */
  restartApi(api: ApiProcess): Promise<void>;
  stop(): Promise<void>;
}

export interface NodeProcess extends RunningProcess {
  metricsPort: number;
  kill(): Promise<void>;
}

export interface ApiProcess extends NodeProcess {
  port: number;
  url: string;
}

export const nginxAvailable = () => spawnSync('nginx', ['-v']).status === 0;

/** The site of infra/nginx.conf with this machine's addresses, inside the minimal main configuration it needs. */
export function nginxConfig(options: {
  port: number;
  apiPorts: number[];
  simPort: number;
  webDist: string;
  prefix: string;
}) {
  let site = readFileSync(path.join(root, 'infra/nginx.conf'), 'utf8');
  const replace = (pattern: RegExp, value: string) => {
    if (!pattern.test(site)) throw new Error(`infra/nginx.conf no longer has ${pattern}`);
    site = site.replace(pattern, value);
  };
  replace(/^\s*listen \[::\]:80;\n/m, '');
  replace(/listen 80;/, `listen 127.0.0.1:${options.port};`);
  replace(/root \/usr\/share\/nginx\/html;/, `root ${options.webDist};`);
  replace(/include \/usr\/share\/nginx\/html\//, `include ${options.webDist}/`);
  replace(/server api:3000([^;]*);/, options.apiPorts.map((port) => `server 127.0.0.1:${port}$1;`).join('\n    '));
  replace(/resolver [^;]*;/, '');
  replace(/set \$walletsim http:\/\/wallet-sim:4010;/, `set $walletsim http://127.0.0.1:${options.simPort};`);
  const temp = (name: string) => path.join(options.prefix, name);
  return `daemon off;
pid ${temp('nginx.pid')};
error_log stderr warn;
events {}
http {
  include /etc/nginx/mime.types;
  access_log off;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
${site}
}
`;
}

async function waitForPort(url: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer`);
}

export interface TopologyOptions {
  /** API processes (2); nginx in front of them unless `nginx` is false (then `baseUrl` is the first API). */
  apis?: number;
  nginx?: boolean;
  logLevel?: string;
  /** Another Redis than REDIS_URL (one a test stops and starts). */
  redisUrl?: string;
}

export async function startTopology(options: TopologyOptions = {}): Promise<Topology> {
  const apiCount = options.apis ?? 2;
  const withNginx = options.nginx ?? true;
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) throw new Error('The scale-out topology needs DATABASE_URL and REDIS_URL');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'seatlink-topology-'));
  const name = `seatlink_topology_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(databaseUrl, `create database ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;

  const [nginxPort, simPort, ...apiPorts] = (await Promise.all(
    Array.from({ length: 2 + apiCount }, () => freePort()),
  )) as [number, number, ...number[]];
  const baseUrl = withNginx ? `http://localhost:${nginxPort}` : `http://localhost:${apiPorts[0]}`;
  const simControlKey = randomBytes(8).toString('hex');
  const sim = runNode(
    path.join(root, 'services/wallet-sim/dist/main.js'),
    {
      ...process.env,
      PORT: String(simPort),
      HOST: '127.0.0.1',
      WALLET_SIM_CONTROL_KEY: simControlKey,
      WALLET_SIM_PUBLIC_URL: `${baseUrl}/wallet-sim`,
    },
    'sim',
  );
  const simUrl = `http://127.0.0.1:${simPort}`;
  await waitForPort(`${simUrl}/health`);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url.toString(),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `topology${randomBytes(4).toString('hex')}`,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DASHBOARD_URL: baseUrl,
    ADMIN_MFA: 'optional',
    STEP_UP_MINUTES: '1440',
    WEB_DIST: '',
    TRUST_PROXY: '1',
    LOG_LEVEL: options.logLevel ?? 'log',
    WALLET_PROVIDER_URL: simUrl,
    WALLET_TOKEN_KEY: randomBytes(32).toString('base64'),
    SEED_DEMO_WALLETS: 'false',
    WALLET_SYNC_FOLLOW_UPS_MS: '1000,2000,3000',
    SUBSCRIPTION_HEARTBEAT_MS: '500',
    THROTTLE_PUBLIC_IP: '1000',
    THROTTLE_LOGIN_IP: '1000',
    THROTTLE_LOGIN_ACCOUNT_IP: '1000',
    THROTTLE_LOGIN_ACCOUNT: '1000',
    THROTTLE_TOPUP_USER: '1000',
    THROTTLE_TOPUP_IP: '1000',
    THROTTLE_WALLET_SIGNIN_USER: '1000',
    THROTTLE_WALLET_SIGNIN_IP: '1000',
    // A test's webhook receiver listens on this machine.
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  };
  const seed = runNode(path.join(serverDist, 'cli/seed.js'), env, 'seed');
  if ((await exited(seed.child)) !== 0) throw new Error(`seeding failed:\n${seed.output()}`);

  const processes: NodeProcess[] = [];
  const node = async (script: string, processName: string, extra: NodeJS.ProcessEnv): Promise<NodeProcess> => {
    const metricsPort = await freePort();
    const running = runNode(
      path.join(serverDist, script),
      { ...env, ...extra, METRICS_PORT: String(metricsPort) },
      processName,
    );
    const started: NodeProcess = {
      ...running,
      metricsPort,
      async kill() {
        running.child.kill('SIGKILL');
        await exited(running.child);
      },
    };
    processes.push(started);
    return started;
  };
  const startWorker = async (workerName: string) => {
    const worker = await node('main.worker.js', workerName, {});
    await waitForPort(`http://127.0.0.1:${worker.metricsPort}/metrics`, 60_000);
    return worker;
  };
  const startApi = async (apiName: string, port: number): Promise<ApiProcess> => {
    const started = await node('main.api.js', apiName, { PORT: String(port) });
    const api: ApiProcess = { ...started, port, url: `http://127.0.0.1:${port}` };
    await waitForHealth(api.url, api.child);
    return api;
  };

  const workers = [await startWorker('worker-1'), await startWorker('worker-2')];
  const apis: ApiProcess[] = [];
  for (const [i, port] of apiPorts.entries()) apis.push(await startApi(`api-${'abcdefgh'[i]}`, port));

  let nginx: ChildProcess | null = null;
  if (withNginx) {
    // nginx's workers may run as another user: they need to reach their temporary directories.
    chmodSync(dataDir, 0o755);
    const prefix = path.join(dataDir, 'nginx');
    mkdirSync(prefix, { recursive: true });
    // And the dashboard's files: a copy beside them (the checkout may sit in a directory only its owner can enter).
    const webDist = path.join(dataDir, 'web');
    cpSync(path.join(root, 'web/dist'), webDist, { recursive: true });
    const conf = path.join(prefix, 'nginx.conf');
    writeFileSync(
      conf,
      nginxConfig({
        port: nginxPort,
        apiPorts,
        simPort,
        webDist,
        prefix,
      }),
    );
    const started = spawn('nginx', ['-c', conf, '-p', prefix], { stdio: ['ignore', 'ignore', 'pipe'] });
    started.stderr.on('data', (d: Buffer) => process.stderr.write(`[nginx] ${d.toString()}`));
    nginx = started;
    await waitForHealth(baseUrl, started, 20_000);
  }

  return {
    baseUrl,
    apis,
    workers,
    simUrl,
    simControlKey,
    databaseUrl: url.toString(),
    startWorker: async (workerName) => {
      const worker = await startWorker(workerName);
      workers.push(worker);
      return worker;
    },
    restartApi: async (api) => {
      const again = await startApi(api.name, api.port);
      Object.assign(api, again);
    },
    async stop() {
      nginx?.kill('SIGTERM');
      for (const p of [...processes, sim]) if (p.child.exitCode === null) p.child.kill('SIGTERM');
      await Promise.all([...processes, sim].map((p) => exited(p.child)));
      if (nginx) await exited(nginx);
      await adminQuery(databaseUrl, `drop database if exists ${name} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through one API process (or any base URL): the session cookie and the user's id. */
export async function signInAt(
  api: { url: string } | string,
  email: string,
  password: string,
): Promise<{ cookie: string; id: string }> {
  const res = await fetch(`${typeof api === 'string' ? api : api.url}/v1/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, token: null }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('seatlink_session='))!
    .split(';')[0]!;
  return { cookie, id: ((await res.json()) as { user: { id: string } }).user.id };
}

/** A figure of a process's /metrics (summed over the series matching the labels given). */
export async function metric(process: NodeProcess, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${process.metricsPort}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) sum += Number(line.split(' ').at(-1));
  }
  return sum;
}
