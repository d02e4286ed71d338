import type { INestApplicationContext } from '@nestjs/common';
import type { User } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { seed } from '../seed.js';
import { ApiClient, startTestStack, startTestWorker, type TestStack } from './test-app.js';
import { type SimControl, simControl, startSim } from './wallet-fixture.js';

/** The product in its production shape on one database: the simulator, an API process and a worker, seeded. */
export interface SplitStack {
  sim: WalletSimApp;
  simUrl: string;
  control: SimControl;
  api: TestStack;
  /** The worker as started; a test that stops and starts workers keeps its own. */
  worker: INestApplicationContext;
  admin: ApiClient;
  user: ApiClient;
  userId: string;
}

/**
 * Starts the simulator, an API (its own database and Redis prefix) and a worker on it, seeds the demo users and signs
 * in the demo admin and user. Syncs after a link run once, periodic ones every ten minutes, unless `env` says otherwise.
 */
export async function startSplitStack(env: Record<string, string> = {}): Promise<SplitStack> {
  const { sim, url: simUrl } = await startSim();
  const api = await startTestStack({
    role: 'api',
    env: { WALLET_PROVIDER_URL: simUrl, WALLET_SYNC_FOLLOW_UPS_MS: '', WALLET_SYNC_EVERY_MS: '600000', ...env },
  });
  const worker = await startTestWorker(api.config);
  await seed(worker);
  const admin = new ApiClient(api.baseUrl);
  const user = new ApiClient(api.baseUrl);
  await admin.login('admin@seatlink.test', 'Admin123!');
  const userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
  return { sim, simUrl, control: simControl(simUrl), api, worker, admin, user, userId };
}
