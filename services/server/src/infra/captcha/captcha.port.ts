import { ForbiddenException } from '@nestjs/common';
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

/** The answer to a failed human check (403, code CAPTCHA_FAILED). */
export class CaptchaFailedException extends ForbiddenException {
  constructor() {
    super({ message: 'Human verification failed. Please try again.', code: 'CAPTCHA_FAILED' });
  }
}

/** Throws CaptchaFailedException unless the token passes for the action. */
export async function requireHuman(
  verifier: CaptchaVerifier,
  token: string | null | undefined,
  action: CaptchaAction,
  remoteIp?: string,
): Promise<void> {
  if (!(await verifier.verify(token, action, remoteIp))) throw new CaptchaFailedException();
}
