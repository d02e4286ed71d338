import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '../config/config.js';

/** Where the simulator is mounted when no WALLET_PROVIDER_URL is given. */
export const WALLET_SIM_PREFIX = '/wallet-sim';

/**
 * The mounted simulator's control key: WALLET_SIM_CONTROL_KEY, else the one kept in DATA_DIR (made, and printed, on the
 * first start; a data directory in memory gets a key of its own for the process).
 */
export async function walletSimControlKey(config: AppConfig): Promise<{ key: string; file: string | null }> {
  if (config.WALLET_SIM_CONTROL_KEY) return { key: config.WALLET_SIM_CONTROL_KEY, file: null };
  if (config.DATA_DIR === 'memory://') return { key: randomBytes(32).toString('base64url'), file: null };
  const { storedControlKey } = await import('@seatlink/wallet-sim');
  const stored = storedControlKey(config.DATA_DIR);
  if (stored.created) {
    new Logger('WalletSim').log(
      `Control API key of the simulator (header x-control-key), shown this once and kept in ${stored.file}: ${stored.key}`,
    );
  }
  return { key: stored.key, file: stored.file };
}

/**
 * No WALLET_PROVIDER_URL: the simulated wallet provider is mounted at /wallet-sim in this process (its demo wallets
 * seeded; sign-ins valid 30 days, so hourly syncs keep working), and the product reaches it over HTTP like any
 * provider. The product calls it at 127.0.0.1; browsers load its logos from the dashboard's origin (the CSP allows
 * images from there), where the dashboard's server or dev proxy passes /wallet-sim on to this process. Its control API
 * (add passes, change passwords, inject failures) answers only calls carrying its key: it sits on the product's port.
 * With WALLET_PROVIDER_URL set nothing is mounted: the product talks to that provider only.
 */
export async function mountWalletSim(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  if (!config.mountWalletSim) return;
  const { walletSimPlugin } = await import('@seatlink/wallet-sim');
  const { key } = await walletSimControlKey(config);
  await app.register(walletSimPlugin, {
    prefix: WALLET_SIM_PREFIX,
    seedDemo: true,
    tokenTtlMs: 30 * 24 * 3600_000,
    publicUrl: `${config.DASHBOARD_URL.replace(/\/+$/, '')}${WALLET_SIM_PREFIX}`,
    controlKey: key,
  });
}
