import { loadConfig } from './infra/config/config.js';
import { createContext, logger } from './bootstrap.js';
import { isDatabaseEmpty, seed } from './seed.js';

/** The projector and job processors, no HTTP. Live updates reach the API processes through Redis. */
async function main() {
  const config = loadConfig();
  const app = await createContext(config, 'worker');
  await app.init();
  if (await isDatabaseEmpty(app)) logger.log(`Empty database: seeded ${(await seed(app)).join(', ')}`);
  logger.log('Worker running');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
