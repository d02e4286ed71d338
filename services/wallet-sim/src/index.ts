import Fastify, { type FastifyInstance } from 'fastify';

/**
 * The simulated external wallet service (skeleton). The wallet-accounts issue grows it into a realistic remote:
 * e-mail/password login, expiring sessions, 429s and latency, tickets that arrive and leave, duplicates.
 */
export function createWalletSim(): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/health', async () => ({ status: 'ok', service: 'wallet-sim' }));
  return app;
}
