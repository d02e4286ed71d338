import type { ProviderRateLimiter } from '../../infra/wallet/provider-rate-limiter.js';
import {
  type SkippedPass,
  type WalletPass,
  type WalletPassPage,
  type WalletProvider,
  WalletRateLimitedError,
  WalletUnavailableError,
} from '../../infra/wallet/wallet-provider.port.js';
import type { PassDetails } from './wallet-account.events.js';

/** Passes of one wallet read at most (a sane bound on what a provider may answer). */
export const MAX_PASSES = 5000;
/** Pages of one wallet read at most (a page holds up to 100 passes). */
const MAX_PAGES = 500;
/** How long a sync waits for the provider's Retry-After before it fails and is retried later with backoff. */
const RATE_LIMIT_WAIT_MS = 30_000;

/** The wallet lists more passes than a sync takes. */
export class WalletTooLargeError extends Error {
  constructor() {
    super(`The wallet lists more than ${MAX_PASSES} passes`);
    this.name = 'WalletTooLargeError';
  }
}

/** A pass as a ticket keeps it. */
export function passDetails(pass: WalletPass): PassDetails {
  return {
    passId: pass.id,
    barcode: pass.barcode,
    title: pass.title,
    subtitle: pass.subtitle,
    logo: pass.logoUrl,
    saveUrl: pass.saveUrl,
    venueName: pass.venueName,
    section: pass.section,
    row: pass.row,
    seat: pass.seat,
    nextGame: pass.nextGame?.title ?? null,
    nextGameDate: pass.nextGame?.date ?? null,
  };
}

/**
 * Reads every page of a wallet at the shared pace: a 429 pauses every worker for its Retry-After and the same page is
 * asked again (up to RATE_LIMIT_WAIT_MS in all); a wallet larger than MAX_PASSES, or pages without end, fail the read.
 * The passes the provider sent unusable come back apart (`skipped`).
 */
export async function readWallet(
  provider: WalletProvider,
  limiter: ProviderRateLimiter,
  token: string,
  onPage: (fetched: number) => void,
): Promise<{ passes: WalletPass[]; skipped: SkippedPass[] }> {
  const passes: WalletPass[] = [];
  const skipped: SkippedPass[] = [];
  let cursor: string | null = null;
  let waited = 0;
  let pages = 0;
  for (;;) {
    await limiter.take();
    let page: WalletPassPage;
    try {
      page = await provider.listPasses(token, cursor);
    } catch (err) {
      if (err instanceof WalletRateLimitedError && waited + err.retryAfterMs <= RATE_LIMIT_WAIT_MS) {
        // Every worker waits out the provider's Retry-After, then this same page is asked again.
        await limiter.pause(err.retryAfterMs);
        await new Promise((r) => setTimeout(r, err.retryAfterMs));
        waited += err.retryAfterMs;
        continue;
      }
      throw err;
    }
    passes.push(...page.passes);
    skipped.push(...page.skipped);
    onPage(passes.length);
    if (passes.length + skipped.length > MAX_PASSES) throw new WalletTooLargeError();
    if (!page.nextCursor) break;
    // A provider answering the cursor it was given (or empty pages without end) would keep the sync reading.
    if (page.nextCursor === cursor || ++pages > MAX_PAGES) {
      throw new WalletUnavailableError('pages that do not come to an end');
    }
    cursor = page.nextCursor;
  }
  return { passes, skipped };
}
