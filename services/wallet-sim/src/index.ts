import Fastify, { type FastifyInstance } from 'fastify';
import type { WalletSimOptions } from './config.js';
import { createSimulator, sendError, sendNotFound, walletSimPlugin } from './wallet-sim.plugin.js';
import type { WalletSim } from './wallet-sim.store.js';

export { CONTROL_KEY_FILE, storedControlKey, type StoredControlKey } from './control-key.js';
export {
  DEFAULT_CONFIG,
  MIN_CONTROL_KEY_LENGTH,
  type LatencyRange,
  type WalletSimConfig,
  type WalletSimOptions,
} from './config.js';
export { DEMO_CLUBS, DEMO_WALLETS, type Club, type DemoWallet } from './demo-data.js';
export { createSimulator, walletSimPlugin, type WalletSimPluginOptions } from './wallet-sim.plugin.js';
export {
  WalletSim,
  WalletSimError,
  type Account,
  type NewPass,
  type NextGame,
  type RequestStats,
  type Seat,
} from './wallet-sim.store.js';

export interface CreateWalletSimOptions extends WalletSimOptions {
  /** Fastify's logger (default off). */
  logger?: boolean;
  /** Trust X-Forwarded-* headers (protocol and host of logo URLs) from a proxy in front. Default false. */
  trustProxy?: boolean;
}

/** The standalone app, with its simulator at hand (`app.walletSim`) for tests. */
export type WalletSimApp = FastifyInstance & { walletSim: WalletSim };

/**
 * The simulated external wallet service as a Fastify app: the provider API (/v1), the control API (/control), logos
 * and health. Options override the WALLET_SIM_* environment. To mount it in another app, register `walletSimPlugin`.
 */
export function createWalletSim(options: CreateWalletSimOptions = {}): WalletSimApp {
  const { logger = false, trustProxy = false, ...simOptions } = options;
  const sim = createSimulator(simOptions);
  const app = Fastify({
    logger,
    trustProxy,
    // Path parameters carry e-mail addresses (up to 254 characters, more once percent-encoded).
    routerOptions: { maxParamLength: 1024 },
    // Bad URLs and overlong parameters fail before routing: answered in the same { error, message } shape.
    frameworkErrors: (error, request, reply) => sendError(error, request, reply),
  });
  app.decorate('walletSim', sim);
  app.setErrorHandler(sendError);
  app.setNotFoundHandler(sendNotFound);
  void app.register(walletSimPlugin, { sim });
  return app as unknown as WalletSimApp;
}
