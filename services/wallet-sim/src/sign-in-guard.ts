import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { WalletSimError } from './wallet-sim.store.js';

/** The window failed sign-ins are counted over. */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

export interface SignInLimits {
  /** Failed sign-ins to one wallet (from anywhere) in the window before it answers 429. */
  perWallet: number;
  /** Failed sign-ins from one address (to any wallet) in the window before it answers 429. */
  perAddress: number;
}

/**
 * Guessing a wallet's password, as a real provider stops it: each sign-in is counted per wallet and per address before
 * the password is checked (so parallel guesses cannot all slip through), and given back when it succeeds, so only
 * failures add up. Past either limit, 429 `too_many_attempts` with Retry-After, whatever the password.
 */
export class SignInGuard {
  private readonly wallets: RateLimiterMemory;
  private readonly addresses: RateLimiterMemory;

  constructor(limits: SignInLimits) {
    this.wallets = new RateLimiterMemory({
      keyPrefix: 'wallet',
      points: limits.perWallet,
      duration: SIGN_IN_WINDOW_SECONDS,
    });
    this.addresses = new RateLimiterMemory({
      keyPrefix: 'address',
      points: limits.perAddress,
      duration: SIGN_IN_WINDOW_SECONDS,
    });
  }

  async attempt<T>(email: string, address: string, signIn: () => T): Promise<T> {
    const wallet = email.trim().toLowerCase();
    const counted = await Promise.allSettled([this.wallets.consume(wallet), this.addresses.consume(address)]);
    const refused = counted.find((c): c is PromiseRejectedResult => c.status === 'rejected');
    if (refused) {
      const wait =
        refused.reason instanceof RateLimiterRes ? refused.reason.msBeforeNext : SIGN_IN_WINDOW_SECONDS * 1000;
      throw new WalletSimError(429, 'too_many_attempts', 'Too many failed sign-in attempts; retry later', {
        'retry-after': String(Math.max(1, Math.ceil(wait / 1000))),
      });
    }
    const result = signIn();
    await Promise.all([this.wallets.reward(wallet, 1), this.addresses.reward(address, 1)]);
    return result;
  }
}
