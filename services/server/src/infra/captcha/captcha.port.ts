import type { CaptchaAction } from '@seatlink/contracts';

/**
 * The human check (reCAPTCHA v3, verified on the server: success, score at or above the minimum, the expected action,
 * and a token not older than the maximum age). Off in the embedded default: every token passes.
 */
export interface CaptchaVerifier {
  readonly enabled: boolean;
  /** The site key the browser needs, or null when the check is off. */
  readonly siteKey: string | null;
  verify(token: string | null | undefined, action: CaptchaAction, remoteIp?: string): Promise<boolean>;
}

export const CAPTCHA_VERIFIER = Symbol('CaptchaVerifier');
