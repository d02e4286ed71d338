import { createWalletSim, DEMO_WALLETS, storedControlKey } from './index.js';

const port = Number(process.env.PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`wallet-sim: PORT must be a port number, got "${process.env.PORT}"`);
  process.exit(1);
}
const host = process.env.HOST ?? '0.0.0.0';

// The control API's key: WALLET_SIM_CONTROL_KEY, else the one kept in DATA_DIR (made and printed on the first start).
const fromEnv = process.env.WALLET_SIM_CONTROL_KEY?.trim();
const stored = fromEnv ? null : storedControlKey(process.env.DATA_DIR?.trim() || './data');

const app = createWalletSim({ seedDemo: true, controlKey: fromEnv || stored!.key });
await app.listen({ port, host });

const config = app.walletSim.config;
console.log(`wallet-sim listening on http://localhost:${port} (provider API /v1, control API /control)`);
console.log(
  `  arrival delay up to ${config.arrivalDelayMaxMs} ms, tokens live ${config.tokenTtlMs} ms, ` +
    `rate limit ${config.rateLimit.requestsPerSecond || 'off'} req/s, error rate ${config.failure.errorRate}, ` +
    `latency ${config.failure.latencyMs.min}-${config.failure.latencyMs.max} ms`,
);
if (stored?.created) {
  console.log(`  control API key (header x-control-key), shown this once and kept in ${stored.file}: ${stored.key}`);
} else {
  console.log(`  control API key (header x-control-key): ${stored ? `in ${stored.file}` : 'WALLET_SIM_CONTROL_KEY'}`);
}
console.log('Demo wallets (e-mail / password):');
for (const wallet of DEMO_WALLETS) {
  console.log(`  ${wallet.email} / ${wallet.password}  (${wallet.first_name} ${wallet.last_name})`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
