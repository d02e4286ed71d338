import { Global, Logger, Module, type DynamicModule } from '@nestjs/common';
import { CAPTCHA_VERIFIER, type CaptchaVerifier } from './captcha.port.js';
import { DisabledVerifier } from './disabled.verifier.js';
import { RecaptchaVerifier } from './recaptcha.verifier.js';

export interface CaptchaModuleOptions {
  /** RECAPTCHA_SECRET_KEY: with the site key, turns the check on. */
  secretKey?: string;
  /** RECAPTCHA_SITE_KEY: what the browser executes reCAPTCHA with. */
  siteKey?: string;
  /** Google's siteverify endpoint by default. */
  verifyUrl?: string;
  /** Default 0.5. */
  minScore?: number;
  /** Default 120. */
  maxAgeSeconds?: number;
}

/** The human check (CAPTCHA_VERIFIER) for the whole application: reCAPTCHA v3 with both keys, off without. */
@Global()
@Module({})
export class CaptchaModule {
  static forRoot(options: CaptchaModuleOptions = {}): DynamicModule {
    return {
      module: CaptchaModule,
      global: true,
      providers: [{ provide: CAPTCHA_VERIFIER, useFactory: () => createCaptchaVerifier(options) }],
      exports: [CAPTCHA_VERIFIER],
    };
  }
}

export function createCaptchaVerifier(
  options: CaptchaModuleOptions,
  logger: Pick<Logger, 'log' | 'warn' | 'debug'> = new Logger('Captcha'),
): CaptchaVerifier {
  const { secretKey, siteKey } = options;
  if (secretKey && siteKey) {
    const verifier = new RecaptchaVerifier({
      secretKey,
      siteKey,
      verifyUrl: options.verifyUrl,
      minScore: options.minScore,
      maxAgeSeconds: options.maxAgeSeconds,
      logger,
    });
    logger.log(`reCAPTCHA v3 on: minimum score ${verifier.minScore}, tokens up to ${verifier.maxAgeSeconds} s old`);
    return verifier;
  }
  // One key without the other is a half-done configuration: say which one is missing rather than run half a check.
  return new DisabledVerifier({ reason: secretKey ? 'no RECAPTCHA_SITE_KEY' : 'no RECAPTCHA_SECRET_KEY', logger });
}
