import { createHash, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { resolveOptions, type WalletSimConfig, type WalletSimOptions } from './config.js';
import { seedDemoData } from './demo-data.js';
import { LOGO_FILE, MAX_SLUG_LENGTH, renderLogo } from './logos.js';
import {
  configBody,
  decodeCursor,
  emailParam,
  encodeCursor,
  moveBody,
  newPassBody,
  parse,
  passChangesBody,
  passesQuery,
  passIdParam,
  passParams,
  passwordBody,
  rawPassBody,
  sessionBody,
  walletBody,
} from './schemas.js';
import { updatedAt, WalletSim, WalletSimError, type WalletPass } from './wallet-sim.store.js';

export interface WalletSimPluginOptions extends WalletSimOptions {
  /** Serve this simulator's state (e.g. to share it with tests) instead of making one from the options. */
  sim?: WalletSim;
}

/** The simulator's state and rules, from options over the WALLET_SIM_* environment over the defaults. */
export function createSimulator(options: WalletSimOptions = {}): WalletSim {
  return new WalletSim(resolveOptions(options), seedDemoData);
}

/** Request bodies are small JSON documents. */
const BODY_LIMIT = 64 * 1024;
/** A raw pass may be large on purpose (a provider sending huge strings). */
const RAW_PASS_BODY_LIMIT = 4 * 1024 * 1024;
/** A logo is drawn from its name alone (the same name, the same picture): browsers keep it a year. */
const LOGO_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** `{ error, message }` for every failure; framework 4xx errors (bad JSON, too large, wrong type) included. */
export function sendError(error: FastifyError | WalletSimError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof WalletSimError) {
    return reply.code(error.statusCode).headers(error.headers).send({ error: error.code, message: error.message });
  }
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500) {
    const code =
      status === 404
        ? 'not_found'
        : status === 413
          ? 'payload_too_large'
          : status === 415
            ? 'unsupported_media_type'
            : 'invalid_request';
    return reply.code(status).send({ error: code, message: error.message.slice(0, 500) });
  }
  request.log.error({ err: error }, 'wallet-sim: unexpected error');
  return reply.code(500).send({ error: 'internal_error', message: 'The wallet service failed unexpectedly' });
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(404)
    .send({ error: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}` });
}

/** The origin callers reach the simulator at (a bad Host header falls back to localhost). */
function origin(request: FastifyRequest): string {
  const host = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(request.host)
    ? request.host
    : 'localhost';
  return `${request.protocol}://${host}`;
}

const iso = (epochMs: number) => new Date(epochMs).toISOString();

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The simulated wallet's page after saving a shared pass. */
function savePage(heading: string, title: string, detail: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading)} · Wallet (simulated)</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f6fb;color:#0f172a;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;border-radius:16px;padding:32px;max-width:420px;box-shadow:0 10px 30px rgba(15,23,42,.08);text-align:center}
h1{font-size:1.25rem;margin:0 0 12px}p{margin:4px 0;color:#475569}small{display:block;margin-top:20px;color:#94a3b8}</style></head>
<body><main><h1>${escapeHtml(heading)}</h1><p><strong>${escapeHtml(title)}</strong></p><p>${escapeHtml(detail)}</p>
<small>Simulated wallet provider</small></main></body></html>`;
}

/** A pass as the provider API answers it. */
function apiPass(entry: WalletPass, base: string): unknown {
  if (entry.raw !== undefined) return entry.raw.value;
  const { pass } = entry;
  return {
    id: pass.id,
    barcode: pass.barcode,
    event: {
      title: pass.event.title,
      subtitle: pass.event.subtitle,
      logo_url: `${base}/logos/${pass.event.logo_slug}.svg`,
    },
    venue: { name: pass.venue.name },
    seat: pass.seat ? { ...pass.seat } : null,
    next_game: pass.next_game ? { ...pass.next_game } : null,
    /** Where someone the pass is shared with saves it to their own wallet. */
    save_url: `${base}/save/${encodeURIComponent(pass.id)}`,
    updated_at: iso(updatedAt(entry)),
  };
}

/** A pass as the control API answers it: the API's view plus when it was added and when it shows. */
function controlPass(entry: WalletPass, base: string) {
  const times = { added_at: iso(entry.addedAt), visible_at: iso(entry.visibleAt) };
  if (entry.raw !== undefined) return { id: entry.pass.id, raw: true, ...times };
  return { ...(apiPass(entry, base) as Record<string, unknown>), ...times };
}

/** The configuration in the shape PUT /control/config takes. */
function configView(config: WalletSimConfig) {
  return {
    arrivalDelayMaxMs: config.arrivalDelayMaxMs,
    tokenTtlMs: config.tokenTtlMs,
    rateLimit: { ...config.rateLimit },
    errorRate: config.failure.errorRate,
    latencyMs: { ...config.failure.latencyMs },
  };
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.length > 1024) return null;
  return /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i.exec(header)?.[1] ?? null;
}

/** Compares digests of equal length, so neither the key's bytes nor its length show in the time taken. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The wallet provider's HTTP API, its control API, logos and health. Mount it standalone (createWalletSim) or in
 * another Fastify app under a prefix: `app.register(walletSimPlugin, { prefix: '/wallet-sim', seedDemo: true })`.
 */
export const walletSimPlugin: FastifyPluginAsync<WalletSimPluginOptions> = async (app, options) => {
  const sim = options.sim ?? createSimulator(options);
  const prefix = app.prefix;
  /** Where browsers reach the simulator: logo and save URLs are built on it. */
  const publicBase = (request: FastifyRequest) => sim.publicUrl ?? `${origin(request)}${prefix}`;

  app.setErrorHandler(sendError);
  if (prefix) app.setNotFoundHandler(sendNotFound);
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= BODY_LIMIT;
  });
  // JSON as Fastify parses it, except that an empty body with a JSON content type counts as no body.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    jsonParser(request, text, done);
  });

  app.get('/health', async () => ({ status: 'ok', service: 'wallet-sim' }));

  app.get('/logos/:file', async (request, reply) => {
    const { file } = request.params as { file: string };
    const match = LOGO_FILE.exec(file);
    if (!match?.[1] || match[1].length > MAX_SLUG_LENGTH) {
      throw new WalletSimError(404, 'not_found', 'No such logo');
    }
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('cache-control', LOGO_CACHE_CONTROL)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(renderLogo(match[1]));
  });

  // A shared pass saved to someone's wallet: what a real wallet's "add pass" page does, simulated.
  app.get('/save/:passId', async (request, reply) => {
    const { passId } = request.params as { passId: string };
    const pass = passId.length <= 200 ? sim.findPass(passId) : null;
    const title = pass ? pass.pass.event.title : 'This pass is no longer available';
    const detail = pass
      ? [pass.pass.event.subtitle, pass.pass.venue.name].filter(Boolean).join(' · ')
      : 'Ask whoever shared it for a new link.';
    return reply
      .code(pass ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('x-content-type-options', 'nosniff')
      .send(savePage(pass ? 'Saved to your wallet' : 'Pass not found', title, detail));
  });

  // ---- provider API: rate limited, failure injection, bearer tokens ----------------------------------------------
  await app.register(
    async (v1) => {
      v1.addHook('onRequest', async (request) => {
        const url = request.routeOptions.url ?? request.url;
        sim.recordRequest(`${request.method} ${url.startsWith(prefix) ? url.slice(prefix.length) : url}`);
        const waitMs = sim.takeRateLimitToken();
        if (waitMs !== null) {
          sim.recordRateLimited();
          const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
          throw new WalletSimError(429, 'rate_limited', 'Too many requests; retry later', {
            'retry-after': retryAfter,
          });
        }
        const delay = sim.latency();
        if (delay > 0) await sleep(delay);
        if (sim.shouldFail()) {
          sim.recordFailure();
          throw new WalletSimError(503, 'unavailable', 'The wallet service is temporarily unavailable', {
            'retry-after': '1',
          });
        }
      });
      v1.addHook('onResponse', async (_request, reply) => {
        sim.recordStatus(reply.statusCode);
      });

      const authenticate = (request: FastifyRequest) => {
        try {
          return sim.authenticate(bearerToken(request));
        } catch (error) {
          if (error instanceof WalletSimError) {
            error.headers['www-authenticate'] = `Bearer realm="wallet-sim", error="invalid_token"`;
          }
          throw error;
        }
      };

      v1.post('/sessions', async (request) => {
        const { email, password } = parse(sessionBody, request.body);
        const session = await sim.signIn(email, password, request.ip);
        return {
          access_token: session.token,
          token_type: 'Bearer',
          expires_in: Math.floor(session.ttlMs / 1000),
          expires_at: iso(session.expiresAt),
          account: session.account,
        };
      });

      v1.get('/me', async (request) => authenticate(request));

      v1.get('/passes', async (request) => {
        const account = authenticate(request);
        const query = parse(passesQuery, request.query);
        const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
        const page = sim.visiblePasses(account.email, after, query.limit);
        const base = publicBase(request);
        const last = page.passes.at(-1);
        return {
          passes: page.passes.map((entry) => apiPass(entry, base)),
          next_cursor: page.more && last ? encodeCursor(last.pass.id) : null,
        };
      });
    },
    { prefix: '/v1' },
  );

  // ---- control API: tests and the demo drive the remote ----------------------------------------------------------
  await app.register(
    async (control) => {
      // Every control call needs the key: whoever reaches this API can add passes to any wallet, change passwords and
      // take the provider down (errorRate). A simulator made without one has a random key (sim.controlKey).
      control.addHook('onRequest', async (request) => {
        const given = request.headers['x-control-key'];
        if (typeof given !== 'string' || !sameSecret(given, sim.controlKey)) {
          throw new WalletSimError(401, 'invalid_control_key', 'The control API needs the right x-control-key header');
        }
      });

      control.get('/wallets', async () => ({ wallets: sim.listWallets() }));

      control.post('/wallets', async (request, reply) => {
        const account = sim.createWallet(parse(walletBody, request.body));
        return reply.code(201).send(account);
      });

      control.get('/wallets/:email', async (request) => sim.account(parse(emailParam, request.params).email));

      control.delete('/wallets/:email', async (request, reply) => {
        sim.deleteWallet(parse(emailParam, request.params).email);
        return reply.code(204).send();
      });

      control.post('/wallets/:email/password', async (request) => {
        const { email } = parse(emailParam, request.params);
        const { password } = parse(passwordBody, request.body);
        const revoked = sim.changePassword(email, password);
        return { account: sim.account(email), revoked_tokens: revoked };
      });

      control.get('/wallets/:email/passes', async (request) => {
        const { email } = parse(emailParam, request.params);
        const base = publicBase(request);
        return { passes: sim.allPasses(email).map((entry) => controlPass(entry, base)) };
      });

      control.post('/wallets/:email/passes', async (request, reply) => {
        const { email } = parse(emailParam, request.params);
        const entry = sim.addPass(email, parse(newPassBody, request.body));
        return reply.code(201).send(controlPass(entry, publicBase(request)));
      });

      // A provider that misbehaves: the pass is answered by /v1/passes exactly as given, whatever it holds (control
      // characters, lone surrogates, wrong types, deep nesting), so a product can be tried against one.
      control.post('/wallets/:email/raw-passes', { bodyLimit: RAW_PASS_BODY_LIMIT }, async (request, reply) => {
        const { email } = parse(emailParam, request.params);
        const { id, pass, visible_after_ms } = parse(rawPassBody, request.body);
        const entry = sim.addRawPass(email, { id, raw: pass, visible_after_ms });
        return reply.code(201).send(controlPass(entry, publicBase(request)));
      });

      control.patch('/wallets/:email/passes/:passId', async (request) => {
        const { email, passId } = parse(passParams, request.params);
        const entry = sim.updatePass(email, passId, parse(passChangesBody, request.body));
        return controlPass(entry, publicBase(request));
      });

      control.delete('/wallets/:email/passes/:passId', async (request, reply) => {
        const { email, passId } = parse(passParams, request.params);
        sim.removePass(email, passId);
        return reply.code(204).send();
      });

      control.post('/passes/:passId/move', async (request) => {
        const { passId } = parse(passIdParam, request.params);
        const { from, to, visible_after_ms } = parse(moveBody, request.body);
        const entry = sim.movePass(passId, from, to, visible_after_ms);
        return { ...controlPass(entry, publicBase(request)), from, to };
      });

      control.post('/tokens/:email/expire', async (request) => {
        return { expired_tokens: sim.expireTokens(parse(emailParam, request.params).email) };
      });

      control.get('/config', async () => configView(sim.config));

      control.put('/config', async (request) => configView(sim.updateConfig(parse(configBody, request.body))));

      control.get('/stats', async () => ({ requests: sim.stats }));

      control.post('/stats/reset', async () => {
        sim.resetStats();
        return { requests: sim.stats };
      });

      control.post('/reset', async () => {
        sim.reset();
        return { status: 'reset', wallets: sim.listWallets().length };
      });
    },
    { prefix: '/control' },
  );
};
