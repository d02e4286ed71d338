import { Logger } from '@nestjs/common';
import type { CaptchaAction } from '@seatlink/contracts';
import { z } from 'zod';
import type { CaptchaVerifier } from './captcha.port.js';

export const RECAPTCHA_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

export interface RecaptchaVerifierOptions {
  secretKey: string;
  siteKey: string;
  /** Google's siteverify endpoint by default; tests point it at a local server. */
  verifyUrl?: string;
  /** The lowest score that passes, 0 to 1; default 0.5 (Google's suggested threshold). */
  minScore?: number;
  /** How old the challenge may be when it is verified; default 120 s (a token lives two minutes at Google). */
  maxAgeSeconds?: number;
  /** How long to wait for Google; default 5000 ms. */
  timeoutMs?: number;
  now?: () => Date;
  logger?: Pick<Logger, 'warn' | 'debug'>;
}

/** Google's answer (https://developers.google.com/recaptcha/docs/v3#site_verify_response); other keys are ignored. */
const siteverifyAnswer = z.object({
  success: z.boolean(),
  score: z.number().min(0).max(1).optional(),
  action: z.string().optional(),
  /** ISO 8601, e.g. 2026-03-01T09:30:15Z. */
  challenge_ts: z.string().optional(),
  hostname: z.string().optional(),
  'error-codes': z.array(z.string()).optional(),
});

/**
 * reCAPTCHA v3 checked on the server. A token passes only when Google says success, the score is at least the
 * minimum, the action is the one this form executes (a token made for another form does not pass), and the challenge
 * is not older than the maximum age. Anything else fails closed, never throws: no token (no call is made), Google out
 * of reach, slow (timeout), answering non-200 or something that is not the documented JSON. A challenge timestamp a
 * little in the future (clocks differ) counts as fresh.
 */
export class RecaptchaVerifier implements CaptchaVerifier {
  readonly enabled = true;
  readonly siteKey: string;
  private readonly secretKey: string;
  private readonly verifyUrl: string;
  readonly minScore: number;
  readonly maxAgeSeconds: number;
  private readonly timeoutMs: number;
  private readonly now: () => Date;
  private readonly logger: Pick<Logger, 'warn' | 'debug'>;

  constructor(options: RecaptchaVerifierOptions) {
    if (!options.secretKey || !options.siteKey) throw new Error('reCAPTCHA needs a secret key and a site key');
    const minScore = options.minScore ?? 0.5;
    const maxAgeSeconds = options.maxAgeSeconds ?? 120;
    const timeoutMs = options.timeoutMs ?? 5000;
    if (!(minScore >= 0 && minScore <= 1)) throw new Error(`reCAPTCHA minimum score must be 0 to 1, not ${minScore}`);
    if (!(maxAgeSeconds > 0)) throw new Error(`reCAPTCHA maximum age must be positive, not ${maxAgeSeconds}`);
    if (!(timeoutMs > 0)) throw new Error(`reCAPTCHA timeout must be positive, not ${timeoutMs}`);
    this.secretKey = options.secretKey;
    this.siteKey = options.siteKey;
    this.verifyUrl = options.verifyUrl ?? RECAPTCHA_VERIFY_URL;
    this.minScore = minScore;
    this.maxAgeSeconds = maxAgeSeconds;
    this.timeoutMs = timeoutMs;
    this.now = options.now ?? (() => new Date());
    this.logger = options.logger ?? new Logger('Captcha');
  }

  async verify(token: string | null | undefined, action: CaptchaAction, remoteIp?: string): Promise<boolean> {
    if (!token) {
      this.logger.debug(`${action}: no captcha token`);
      return false;
    }
    const form = new URLSearchParams({ secret: this.secretKey, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);

    let body: string;
    try {
      const response = await fetch(this.verifyUrl, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      body = await response.text();
      if (response.status !== 200) {
        this.logger.warn(`${action}: siteverify answered ${response.status}; the check fails`);
        return false;
      }
    } catch (err) {
      const reason =
        err instanceof Error && err.name === 'TimeoutError'
          ? `no answer within ${this.timeoutMs} ms`
          : `unreachable (${describe(err)})`;
      this.logger.warn(`${action}: siteverify ${reason}; the check fails`);
      return false;
    }

    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      this.logger.warn(`${action}: siteverify answered something that is not JSON; the check fails`);
      return false;
    }
    const parsed = siteverifyAnswer.safeParse(json);
    if (!parsed.success) {
      this.logger.warn(`${action}: siteverify answered an unexpected shape (${parsed.error.message}); the check fails`);
      return false;
    }

    const refusal = this.refusal(parsed.data, action);
    if (refusal) {
      this.logger.debug(`${action}: captcha refused, ${refusal}`);
      return false;
    }
    return true;
  }

  /** Why the answer does not pass, or null when it does. */
  private refusal(answer: z.infer<typeof siteverifyAnswer>, action: CaptchaAction): string | null {
    if (answer.success !== true) return `not a valid token (${(answer['error-codes'] ?? []).join(', ') || 'no code'})`;
    if (answer.score === undefined || answer.score < this.minScore)
      return `score ${answer.score ?? 'missing'} below ${this.minScore}`;
    if (answer.action !== action) return `made for action ${answer.action ?? '(none)'}`;
    const issuedAt = answer.challenge_ts === undefined ? Number.NaN : Date.parse(answer.challenge_ts);
    if (Number.isNaN(issuedAt)) return `challenge time ${answer.challenge_ts ?? 'missing'} does not parse`;
    const ageMs = this.now().getTime() - issuedAt;
    if (ageMs > this.maxAgeSeconds * 1000)
      return `challenge ${Math.round(ageMs / 1000)} s old, over ${this.maxAgeSeconds} s`;
    return null;
  }
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}
