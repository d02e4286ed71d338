import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
import { simControl, startSim, WALLET_PASSWORD } from '../../testing/wallet-fixture.js';

/**
 * The wallet provider holds a wallet's sign-ins after too many wrong passwords (the simulator as a real provider does,
 * per wallet and per address): the product tells the user so, for that wallet only, and every other sign-in and sync
 * goes on — a provider's per-wallet 429 is not its "slow down" for everything.
 */
describe('a wallet the provider holds after too many wrong passwords', () => {
  let sim: WalletSimApp;
  let control: ReturnType<typeof simControl>;
  let stack: TestStack;

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim({ signInLimits: { perWallet: 3, perAddress: 1000 } }));
    control = simControl(url);
    stack = await startTestStack({ env: { WALLET_PROVIDER_URL: url, WALLET_SYNC_FOLLOW_UPS_MS: '' } });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  const newWallet = async (email: string) =>
    control('POST', '/wallets', { email, password: WALLET_PASSWORD, first_name: 'Wally', last_name: 'Tester' });

  it('answers 429 WALLET_SIGN_IN_LOCKED with Retry-After for that wallet, and links another at once', async () => {
    await newWallet('held@wallet.test');
    await newWallet('free@wallet.test');
    const user = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    await client.login(user.email, user.password);

    const wrong = await Promise.all(
      Array.from({ length: 3 }, () =>
        client.request('POST', '/v1/accounts', { email: 'held@wallet.test', password: 'Wrong!pass1' }),
      ),
    );
    expect(wrong.map((r) => r.body.code)).toEqual(Array(3).fill('WALLET_AUTH_FAILED'));
    // The right password now: the provider holds the wallet, and the user reads why (not "busy", not a 5xx).
    const held = await client.request('POST', '/v1/accounts', { email: 'held@wallet.test', password: WALLET_PASSWORD });
    expect(held.status).toBe(429);
    expect(held.body).toMatchObject({
      code: 'WALLET_SIGN_IN_LOCKED',
      message:
        'The wallet service refuses sign-ins to this wallet for a while after too many wrong passwords. Please try again later.',
    });
    expect(held.body.retryAfterSeconds).toBeGreaterThan(60);
    expect(held.headers.get('retry-after')).toBe(String(held.body.retryAfterSeconds));
    // Nothing else waits for it (a pause of every call for its Retry-After would answer WALLET_RATE_LIMITED here).
    const free = await client.request('POST', '/v1/accounts', { email: 'free@wallet.test', password: WALLET_PASSWORD });
    expect([201, 202]).toContain(free.status);
  });
});
