import fastifyCompress from '@fastify/compress';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/** reCAPTCHA v3 loads its script from Google and runs in Google's frame (the human check, when keys are set). */
const RECAPTCHA_SCRIPTS = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];
const RECAPTCHA_FRAMES = ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'];
/** Stripe.js (stripe mode's card field) loads from js.stripe.com, runs its fields in frames there, calls its API. */
const STRIPE_JS = 'https://js.stripe.com';
const STRIPE_API = 'https://api.stripe.com';

/**
 * Response headers of every answer (helmet): a Content-Security-Policy for the dashboard (its own scripts and styles,
 * the human check's and Stripe.js's; no framing by any site), X-Frame-Options DENY, nosniff, a referrer policy that
 * never sends paths (reset links carry tokens) to other sites, and HSTS. Then compression (brotli or gzip) of answers
 * over 1 KiB.
 *
 * The API's JSON answers (/v1, /health) carry only the headers OWASP's REST Security Cheat Sheet asks of an API
 * (nothing on them is a page to protect): `default-src 'none'; frame-ancestors 'none'`, X-Frame-Options DENY,
 * nosniff, the referrer policy, HSTS and the resource policy: about a quarter of the bytes of the dashboard's set, on
 * every answer. (The queue board, a page under /v1, sets a policy of its own.)
 *
 * Helmet's middleware is built once here, and the headers it sets are taken once and put on every answer as they are.
 * (@fastify/helmet builds it again on every request, parsing the policy each time: a tenth of the API's time per
 * request under load.)
 */
export async function registerHttpHardening(
  app: NestFastifyApplication,
  dashboardOrigin: string,
  inlineScripts: readonly string[] = [],
): Promise<void> {
  const socketOrigin = dashboardOrigin.replace(/^http/, 'ws');
  const pageHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        // The dashboard's own inline script (the theme, set before the first paint), by its hash only.
        scriptSrc: ["'self'", ...inlineScripts, ...RECAPTCHA_SCRIPTS, STRIPE_JS],
        frameSrc: [...RECAPTCHA_FRAMES, STRIPE_JS],
        connectSrc: ["'self'", socketOrigin, ...RECAPTCHA_SCRIPTS, STRIPE_API],
        // Toasts (react-hot-toast) add their styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  const apiHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  const page = Object.entries(headersSetBy(pageHeaders));
  const api = Object.entries(headersSetBy(apiHeaders));
  const isApiAnswer = (url: string) =>
    url.startsWith('/v1/') || url === '/v1' || url === '/health' || url.startsWith('/health?');
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      // On Node's response, as helmet puts them: also on answers written past Fastify's reply.
      for (const [name, value] of isApiAnswer(request.url) ? api : page) reply.raw.setHeader(name, value);
      done();
    });
  await app.register(fastifyCompress, { global: true, encodings: ['br', 'gzip'], threshold: 1024 });
}

/**
 * The headers a helmet middleware sets, taken once: with no nonces they depend on nothing in the request, so each
 * answer gets them from a list instead of helmet's dozen middlewares running again.
 */
function headersSetBy(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown = null;
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    failure = err ?? null;
  });
  if (failure !== null) throw new Error('helmet could not set its headers', { cause: failure });
  return headers;
}

/** Hashed build assets never change under their name: cached for a year; everything else is revalidated. */
export function staticCacheHeaders(reply: HeaderTarget, filePath: string) {
  const value = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/.test(filePath)
    ? 'public, max-age=31536000, immutable'
    : 'no-cache';
  // @fastify/static hands over Fastify's reply (`header`); its typings name Node's response (`setHeader`).
  if (typeof reply.header === 'function') reply.header('cache-control', value);
  else reply.setHeader?.('cache-control', value);
}

interface HeaderTarget {
  header?(name: string, value: string): unknown;
  setHeader?(name: string, value: string): unknown;
}
