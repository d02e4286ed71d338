import type { ChildProcess } from 'node:child_process';
import type * as EmbeddedModuleNs from '../../../services/server/src/infra/db/embedded/embedded-postgres.js';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFixtures } from './fixtures';
import { startMailCatcher } from './mail-catcher';
import { adminQuery, exited, freePort, runNode, serverDist as dist, waitForHealth } from './processes';

function run(script: string, env: NodeJS.ProcessEnv, name: string): ChildProcess {
  return runNode(path.join(dist, script), env, name).child;
}

export default async function globalSetup() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'seatlink-e2e-'));
  // As root the embedded PostgreSQL server runs as the postgres user, which must reach its directory.
  chmodSync(dataDir, 0o755);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DASHBOARD_URL: `http://localhost:${port}`,
    REDIS_PREFIX: `e2e${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: 'warn',
    // Every browser test comes from 127.0.0.1: per-IP limits are for the API tests to prove, not to trip these.
    THROTTLE_PUBLIC_IP: '1000',
    // Link PINs are slowed per device too: each recipient phone (a browser context) keeps a device id of its own.
    THROTTLE_PIN_IP: '1000',
    // The browser tests sign in as the demo admin with the password alone.
    ADMIN_MFA: 'optional',
    STEP_UP_MINUTES: '1440',
    THROTTLE_LOGIN_IP: '1000',
    THROTTLE_LOGIN_ACCOUNT_IP: '1000',
    // Low enough for sign-in-link.e2e.ts to spend an account's count (failures only: a right password gives its
    // attempt back, so the many sign-ins of the demo users never add up).
    THROTTLE_LOGIN_ACCOUNT: '25',
    THROTTLE_TOPUP_USER: '1000',
    THROTTLE_TOPUP_IP: '1000',
    THROTTLE_WALLET_SIGNIN_USER: '1000',
    THROTTLE_WALLET_SIGNIN_IP: '1000',
    // Syncs after a link or a new sign-in come seconds apart instead of minutes, so the browser tests see what a
    // sync brings (a pass added meanwhile, a password changed at the wallet) without waiting a minute.
    WALLET_SYNC_FOLLOW_UPS_MS: '2000,5000',
    // The mounted simulator's control API answers only this key (support/wallet-sim.ts sends it).
    WALLET_SIM_CONTROL_KEY: randomBytes(24).toString('base64url'),
    // webhooks.e2e.ts's receiver listens on this machine: deliveries to it (plain http, loopback) are allowed.
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  };
  process.env.E2E_SIM_CONTROL_KEY = env.WALLET_SIM_CONTROL_KEY;
  let dropDatabase = async () => {};
  if (!process.env.DATABASE_URL) {
    // `npm start`'s embedded server, started here in the stack's DATA_DIR so the fixtures can be written before the
    // product starts; the product finds it running there and shares it (as `npm run replay` beside `npm start` does).
    const { startEmbeddedPostgres } = (await import(
      path.join(dist, 'infra/db/embedded/embedded-postgres.js')
    )) as typeof EmbeddedModuleNs;
    const embedded = await startEmbeddedPostgres({ dataDir });
    process.env.E2E_DATABASE_URL = embedded.url;
    dropDatabase = () => embedded.stop();
  } else {
    const name = `seatlink_e2e_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    await adminQuery(process.env.DATABASE_URL, `create database ${name}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    dropDatabase = () => adminQuery(process.env.DATABASE_URL!, `drop database if exists ${name} with (force)`);
    // For the few tests that must move time on in a read model (a link's expiry passing): support/distribution.ts.
    process.env.E2E_DATABASE_URL = env.DATABASE_URL;
  }

  const mail = await startMailCatcher(path.join(dataDir, 'caught-mail'));
  env.SMTP_URL = mail.url;
  process.env.E2E_MAIL_DIR = path.join(dataDir, 'caught-mail');
  await writeFixtures(dist, env.DATABASE_URL ?? process.env.E2E_DATABASE_URL!);

  const children: ChildProcess[] = [];
  if (process.env.REDIS_URL) {
    // Production shape: the projector runs in the worker; the browser talks to the API process.
    const seed = run('cli/seed.js', env, 'seed');
    if ((await exited(seed)) !== 0) throw new Error('seeding failed');
    children.push(run('main.worker.js', env, 'worker'), run('main.api.js', env, 'api'));
  } else {
    children.push(run('main.js', env, 'app'));
  }
  await waitForHealth(`http://127.0.0.1:${port}`, children[children.length - 1]!);
  process.env.E2E_BASE_URL = `http://localhost:${port}`;
  process.env.E2E_MODE = process.env.REDIS_URL ? 'api+worker' : 'all-in-one';
  console.log(`e2e stack (${process.env.E2E_MODE}) at ${process.env.E2E_BASE_URL}`);

  return async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null ? exited(c) : Promise.resolve(c.exitCode))));
    await mail.stop();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
