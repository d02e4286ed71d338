/**
 * The wallet provider: the external service whose accounts users link, and whose passes become Seatlink tickets.
 * Adapters: HTTP (WALLET_PROVIDER_URL; the simulator in services/wallet-sim speaks it). The product never keeps a
 * wallet password: it exchanges it for the provider's access token.
 */
export interface WalletAccountProfile {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  displayName: string;
}

export interface WalletSession {
  accessToken: string;
  expiresAt: Date;
  account: WalletAccountProfile;
}

export interface WalletPass {
  id: string;
  barcode: string;
  title: string;
  subtitle: string | null;
  logoUrl: string | null;
  /** Where someone the pass is shared with saves it to their own wallet (the link's "Add to wallet"). */
  saveUrl: string | null;
  venueName: string | null;
  section: string | null;
  row: string | null;
  seat: string | null;
  nextGame: { title: string | null; date: string | null } | null;
}

/**
 * A pass the provider sent that cannot be used even after its text is cleaned (no usable id, a wrong type, a date
 * out of range, ...): it is left out of the sync and reported. `passId` is its id as far as it can be told (cleaned and
 * cut short for the report), `reason` names the field and what is wrong, never a value.
 */
export interface SkippedPass {
  passId: string | null;
  reason: string;
}

export interface WalletPassPage {
  /** The usable passes, their text cleaned (see provider-text.ts). */
  passes: WalletPass[];
  /** The passes of the page that could not be used. */
  skipped: SkippedPass[];
  nextCursor: string | null;
}

export interface WalletProvider {
  /** Signs in; throws WalletAuthError for a wrong e-mail or password. */
  signIn(email: string, password: string): Promise<WalletSession>;
  /**
   * One page of the wallet's passes; throws WalletTokenError when the token no longer works, WalletUnavailableError
   * when the answer as a whole is unusable. A pass that is unusable on its own is skipped, not the page.
   */
  listPasses(accessToken: string, cursor: string | null): Promise<WalletPassPage>;
}

export const WALLET_PROVIDER = Symbol('WalletProvider');

/** A wrong e-mail or password. */
export class WalletAuthError extends Error {
  constructor() {
    super('The wallet service did not accept this e-mail and password');
    this.name = 'WalletAuthError';
  }
}

/** The access token was refused: it expired, was revoked (the password changed), or is unknown. */
export class WalletTokenError extends Error {
  constructor(readonly kind: 'expired' | 'revoked' | 'invalid') {
    super(
      kind === 'expired'
        ? 'The wallet sign-in has expired'
        : kind === 'revoked'
          ? 'The wallet password was changed'
          : 'The wallet sign-in is no longer valid',
    );
    this.name = 'WalletTokenError';
  }
}

/** The provider asked to slow down. */
export class WalletRateLimitedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super('The wallet service asked us to slow down');
    this.name = 'WalletRateLimitedError';
  }
}

/**
 * The provider refuses sign-ins to this wallet (or from this server) for a while after too many failed ones: about that
 * sign-in only, not a reason to slow every other call down.
 */
export class WalletSignInLockedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super('The wallet service refuses sign-ins for now after too many failed attempts');
    this.name = 'WalletSignInLockedError';
  }
}

/** The provider could not be reached or failed (5xx, timeout, a malformed answer). */
export class WalletUnavailableError extends Error {
  constructor(reason: string) {
    super(`The wallet service is unavailable (${reason})`);
    this.name = 'WalletUnavailableError';
  }
}
