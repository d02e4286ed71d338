import { routes, type CaptchaAction, type PublicConfig } from '@seatlink/contracts';
import { callApi } from './api-client';

/**
 * The invisible human check (docs/reference.md "Sign-in and password screens", "Registration and waitlist screens",
 * "API calls"): reCAPTCHA v3. GET /v1/config says whether it is on; when it gives a site key the script is loaded on
 * demand (once) and a token is made per submit with the form's action name. When the key is null nothing is loaded and
 * the token sent is null.
 *
 * Getting a token never throws: if the config or the script cannot be loaded the token is null and the server decides
 * (its message is shown like any other failure).
 */

/** The part of the reCAPTCHA v3 API used here. */
export interface Recaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Recaptcha;
  }
}

export const RECAPTCHA_SCRIPT_URL = 'https://www.google.com/recaptcha/api.js';

/** Loading the script or making a token gives up after this long. */
export const CAPTCHA_TIMEOUT_MS = 15_000;

export function recaptchaScriptUrl(siteKey: string): string {
  return `${RECAPTCHA_SCRIPT_URL}?render=${encodeURIComponent(siteKey)}`;
}

/** GET /v1/config */
export function loadPublicConfig(): Promise<PublicConfig> {
  return callApi(routes.publicConfig);
}

/** Adds the reCAPTCHA script to the page and resolves with its API once it is ready. */
export function loadRecaptchaScript(siteKey: string): Promise<Recaptcha> {
  return new Promise<Recaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = recaptchaScriptUrl(siteKey);
    script.async = true;
    script.defer = true;
    script.onload = () => {
      const grecaptcha = window.grecaptcha;
      if (!grecaptcha) {
        reject(new Error('The captcha script loaded without its API'));
        return;
      }
      grecaptcha.ready(() => resolve(grecaptcha));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error('Failed to load the captcha script'));
    };
    document.head.appendChild(script);
  });
}

export interface CaptchaDeps {
  loadConfig(): Promise<PublicConfig>;
  loadRecaptcha(siteKey: string): Promise<Recaptcha>;
  timeoutMs?: number;
  onError?(error: unknown): void;
}

export interface CaptchaClient {
  /** A token for `action`, or null when the check is off or could not be done. */
  getToken(action: CaptchaAction): Promise<string | null>;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('The captcha timed out')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Builds a captcha client; the app uses the one below, tests pass their own loaders. */
export function createCaptcha({
  loadConfig,
  loadRecaptcha,
  timeoutMs = CAPTCHA_TIMEOUT_MS,
  onError,
}: CaptchaDeps): CaptchaClient {
  // Both are loaded once; a failed load is forgotten so the next submit tries again.
  let config: Promise<PublicConfig> | null = null;
  let recaptcha: Promise<Recaptcha> | null = null;

  const siteKey = async (): Promise<string | null> => {
    const pending = (config ??= loadConfig());
    try {
      return (await pending).captcha_site_key || null;
    } catch (error) {
      if (config === pending) config = null;
      throw error;
    }
  };

  const api = async (key: string): Promise<Recaptcha> => {
    const pending = (recaptcha ??= withTimeout(loadRecaptcha(key), timeoutMs));
    try {
      return await pending;
    } catch (error) {
      if (recaptcha === pending) recaptcha = null;
      throw error;
    }
  };

  return {
    async getToken(action) {
      try {
        const key = await siteKey();
        if (!key) return null;
        const grecaptcha = await api(key);
        return await withTimeout(grecaptcha.execute(key, { action }), timeoutMs);
      } catch (error) {
        onError?.(error);
        return null;
      }
    },
  };
}

const captcha = createCaptcha({
  loadConfig: loadPublicConfig,
  loadRecaptcha: loadRecaptchaScript,
  onError: (error) => console.warn('Captcha unavailable; sending no token.', error),
});

/** A human-check token for `action` ('login', 'register' or 'interestRegistration'), or null. */
export function getCaptchaToken(action: CaptchaAction): Promise<string | null> {
  return captcha.getToken(action);
}
