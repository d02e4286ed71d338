import { loadConfig } from './infra/config/config.js';
import { createHttpApp, logger } from './bootstrap.js';
import { walletSimControlKey } from './infra/wallet/wallet-sim.mount.js';
import { pages } from '@seatlink/contracts';
import { adminGateNotice, demoUsers, demoWalletsNotice, isDatabaseEmpty, seed, seedDemoWallets } from './seed.js';

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
  const wallets = await seedDemoWallets(app).catch((err: unknown) => {
    logger.warn(`Demo wallets not linked: ${err instanceof Error ? err.message : String(err)}`);
    return [];
  });
  if (wallets.length > 0) logger.log(`Linked the demo wallets ${wallets.join(', ')} to ${demoUsers[1].email}`);
  logger.log(`Seatlink is running at ${url} (its API: ${url}/docs)`);
  logger.log(
    `Demo logins: ${demoUsers.map((u) => `${u.email} / ${u.password}${u.isAdmin ? ' (admin)' : ''}`).join(', ')}`,
  );
  const gate = await adminGateNotice(app, `${url}${pages.settings}#two-factor`);
  if (gate.ready) logger.log(gate.text);
  else logger.warn(gate.text);
  if (config.mountWalletSim) {
    const { file } = await walletSimControlKey(config);
    logger.log(
      `Wallet provider: the simulator at ${url}/wallet-sim; its demo wallets: ${await demoWalletsNotice(app)}; ` +
        'its control API takes the key ' +
        `${file ? `in ${file}` : config.WALLET_SIM_CONTROL_KEY ? 'WALLET_SIM_CONTROL_KEY' : 'made for this process'} ` +
        '(header x-control-key)',
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
