import { describe, expect, it } from 'vitest';
import { createWalletSim } from './index.js';

describe('wallet-sim', () => {
  it('answers its health check', async () => {
    const app = createWalletSim();
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', service: 'wallet-sim' });
    await app.close();
  });
});
