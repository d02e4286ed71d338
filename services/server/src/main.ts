import { loadConfig } from './infra/config/config.js';
import { createHttpApp, logger } from './bootstrap.js';
import { demoUsers, isDatabaseEmpty, seed } from './seed.js';

/** `npm start`: the whole product in one process — API, socket.io, projector, jobs, and the dashboard. */
async function main() {
  const config = loadConfig();
  const app = await createHttpApp(config, 'all');
  await app.init();
  if (await isDatabaseEmpty(app)) {
    const created = await seed(app);
    logger.log(`Empty database: seeded ${created.join(', ')}`);
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  const url = `http://localhost:${config.PORT}`;
  logger.log(`Seatlink is running at ${url}`);
  logger.log(
    `Demo logins: ${demoUsers.map((u) => `${u.email} / ${u.password}${u.isAdmin ? ' (admin)' : ''}`).join(', ')}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
