import { loadConfig } from './infra/config/config.js';
import { createHttpApp, logger } from './bootstrap.js';

/** The HTTP API and socket.io gateway, without the projector (run `main.worker` beside it). */
async function main() {
  const config = loadConfig();
  const app = await createHttpApp(config, 'api');
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.log(`API listening on port ${config.PORT}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
