import { Logger } from '@nestjs/common';
import type { CaptchaVerifier } from './captcha.port.js';

export interface DisabledVerifierOptions {
  /** What is missing, for the log line; default `no RECAPTCHA_SECRET_KEY`. */
  reason?: string;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * The embedded default: no human check, every token (or none) passes. Says so once, when it is made (the application
 * makes one), so nobody runs it in production without seeing it in the log.
 */
export class DisabledVerifier implements CaptchaVerifier {
  readonly enabled = false;
  readonly siteKey = null;

  constructor(options: DisabledVerifierOptions = {}) {
    (options.logger ?? new Logger('Captcha')).warn(`captcha off: ${options.reason ?? 'no RECAPTCHA_SECRET_KEY'}`);
  }

  verify(): Promise<boolean> {
    return Promise.resolve(true);
  }
}
