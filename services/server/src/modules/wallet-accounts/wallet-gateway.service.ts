import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ProviderRateLimiter } from '../../infra/wallet/provider-rate-limiter.js';
import { TokenCipher } from '../../infra/wallet/token-cipher.js';
import {
  WALLET_PROVIDER,
  WalletAuthError,
  type WalletProvider,
  WalletRateLimitedError,
  WalletSignInLockedError,
  type WalletSession,
  WalletUnavailableError,
} from '../../infra/wallet/wallet-provider.port.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { walletCredentials } from './wallet-accounts.schema.js';

/** The provider holds this wallet's sign-ins after too many wrong passwords (ours or anyone's). */
const WALLET_SIGN_IN_LOCKED =
  'The wallet service refuses sign-ins to this wallet for a while after too many wrong passwords. Please try again later.';

/** How long a sign-in waits for a turn toward the provider, or for its Retry-After, before it gives up. */
const SIGN_IN_WAIT_MS = 10_000;

/**
 * The wallet provider as the account commands use it: paced by the shared rate limit, its errors as the user should
 * read them, and its access tokens kept encrypted.
 */
@Injectable()
export class WalletGateway {
  constructor(
    @Inject(WALLET_PROVIDER) private readonly provider: WalletProvider,
    private readonly limiter: ProviderRateLimiter,
    private readonly cipher: TokenCipher,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  /** Signs in to the wallet; a refusal, an outage or a rate limit is a DomainError with a clear 4xx. */
  async signIn(email: string, password: string): Promise<WalletSession> {
    const deadline = Date.now() + SIGN_IN_WAIT_MS;
    for (;;) {
      try {
        await this.limiter.take(Math.max(0, deadline - Date.now()));
        return await this.provider.signIn(email, password);
      } catch (err) {
        if (err instanceof WalletAuthError) {
          throw new DomainError(
            'The wallet service did not accept this e-mail and password',
            'WALLET_AUTH_FAILED',
            400,
          );
        }
        if (err instanceof WalletSignInLockedError) {
          const retryAfterSeconds = Math.ceil(err.retryAfterMs / 1000);
          throw new DomainError(WALLET_SIGN_IN_LOCKED, 'WALLET_SIGN_IN_LOCKED', 429, { retryAfterSeconds });
        }
        if (err instanceof WalletRateLimitedError) {
          await this.limiter.pause(err.retryAfterMs);
          if (Date.now() + err.retryAfterMs < deadline) {
            await new Promise((r) => setTimeout(r, err.retryAfterMs));
            continue;
          }
          throw new DomainError(
            'The wallet service is busy. Please try again in a moment.',
            'WALLET_RATE_LIMITED',
            429,
          );
        }
        if (err instanceof WalletUnavailableError || (err instanceof Error && /rate limited/.test(err.message))) {
          throw new DomainError(
            'The wallet service is unavailable. Please try again later.',
            'WALLET_UNAVAILABLE',
            424,
          );
        }
        throw err;
      }
    }
  }

  /** Keeps the session's access token for the account's syncs, encrypted. */
  async keepToken(accountId: string, session: WalletSession): Promise<void> {
    const sealed = this.cipher.encrypt(session.accessToken);
    await this.database.db
      .insert(walletCredentials)
      .values({ accountId, sealedToken: sealed, expiresAt: session.expiresAt, updatedAt: new Date() })
      .onConflictDoUpdate({
        target: walletCredentials.accountId,
        set: { sealedToken: sealed, expiresAt: session.expiresAt, updatedAt: new Date() },
      });
  }
}
