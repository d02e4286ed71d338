import { loadConfig } from './infra/config/config.js';
import { createHttpApp, logger } from './bootstrap.js';
import { seedDemoWallets } from './seed.js';

/** The HTTP API and socket.io gateway, without the projector (run `main.worker` beside it). */
async function main() {
  const config = loadConfig();
  const app = await createHttpApp(config, 'api');
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.log(`API listening on port ${config.PORT}`);
  // Once the API answers (the simulator may be mounted in it), the demo wallets can be linked (SEED_DEMO_WALLETS).
  await seedDemoWallets(app).catch((err: unknown) =>
    logger.warn(`Demo wallets not linked: ${err instanceof Error ? err.message : String(err)}`),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
