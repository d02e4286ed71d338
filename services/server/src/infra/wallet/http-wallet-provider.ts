import { z } from 'zod';
import {
  WalletAuthError,
  type WalletPass,
  type WalletProvider,
  WalletRateLimitedError,
  type WalletSession,
  WalletTokenError,
  WalletUnavailableError,
} from './wallet-provider.port.js';

const text = (max: number) => z.string().max(max);
const optionalText = (max: number) => z.string().max(max).nullish();
/**
 * A URL the browser will follow or load (a logo, the save page): http or https only, or dropped — a provider's
 * `javascript:` URL must never reach a link's page.
 */
const webUrl = z
  .string()
  .max(2000)
  .nullish()
  .transform((value) => {
    if (!value) return null;
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
    } catch {
      return null;
    }
  });

const sessionSchema = z.object({
  access_token: z.string().min(1).max(4096),
  expires_in: z.number().positive(),
  account: z.object({
    id: text(200),
    email: text(254),
    first_name: optionalText(200),
    last_name: optionalText(200),
    display_name: optionalText(400),
  }),
});

const passSchema = z.object({
  id: z.string().min(1).max(200),
  barcode: optionalText(500),
  event: z.object({ title: text(300), subtitle: optionalText(300), logo_url: webUrl }),
  venue: z.object({ name: optionalText(300) }).nullish(),
  seat: z.object({ section: optionalText(50), row: optionalText(50), seat: optionalText(50) }).nullish(),
  next_game: z.object({ title: optionalText(300), date: optionalText(64) }).nullish(),
  save_url: webUrl,
});

const passesSchema = z.object({ passes: z.array(passSchema).max(1000), next_cursor: z.string().max(2000).nullish() });
const errorSchema = z.object({ error: z.string().max(100) }).partial();

/** Answers that take longer than this count as the provider being down. */
const TIMEOUT_MS = 15_000;

/**
 * The wallet provider over HTTP (see services/wallet-sim/README.md for the API). Every answer is validated: a
 * provider is outside input like any other.
 */
export class HttpWalletProvider implements WalletProvider {
  private readonly base: string;

  constructor(baseUrl: string) {
    this.base = baseUrl.replace(/\/$/, '');
  }

  async signIn(email: string, password: string): Promise<WalletSession> {
    const res = await this.call('/v1/sessions', { method: 'POST', body: JSON.stringify({ email, password }) });
    if (res.status === 401 || res.status === 400) throw new WalletAuthError();
    const body = sessionSchema.safeParse(await this.json(res));
    if (!body.success) throw new WalletUnavailableError('an answer that does not parse');
    const a = body.data.account;
    return {
      accessToken: body.data.access_token,
      expiresAt: new Date(Date.now() + body.data.expires_in * 1000),
      account: {
        id: a.id,
        email: a.email,
        firstName: a.first_name ?? '',
        lastName: a.last_name ?? '',
        displayName: a.display_name ?? ([a.first_name, a.last_name].filter(Boolean).join(' ') || a.email),
      },
    };
  }

  async listPasses(accessToken: string, cursor: string | null) {
    const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
    const res = await this.call(`/v1/passes?${query.toString()}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (res.status === 401) {
      const error = errorSchema.safeParse(await this.json(res).catch(() => ({}))).data?.error;
      throw new WalletTokenError(
        error === 'token_expired' ? 'expired' : error === 'token_revoked' ? 'revoked' : 'invalid',
      );
    }
    const body = passesSchema.safeParse(await this.json(res));
    if (!body.success) throw new WalletUnavailableError('an answer that does not parse');
    return {
      passes: body.data.passes.map((p): WalletPass => ({
        id: p.id,
        barcode: p.barcode ?? '',
        title: p.event.title,
        subtitle: p.event.subtitle ?? null,
        logoUrl: p.event.logo_url ?? null,
        saveUrl: p.save_url ?? null,
        venueName: p.venue?.name ?? null,
        section: p.seat?.section ?? null,
        row: p.seat?.row ?? null,
        seat: p.seat?.seat ?? null,
        nextGame: p.next_game ? { title: p.next_game.title ?? null, date: p.next_game.date ?? null } : null,
      })),
      nextCursor: body.data.next_cursor ?? null,
    };
  }

  /** One request; a 429 or a failure of the provider becomes the matching error, the rest is the caller's. */
  private async call(path: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(this.base + path, {
        ...init,
        headers: { 'content-type': 'application/json', accept: 'application/json', ...init.headers },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new WalletUnavailableError(err instanceof Error ? err.name : 'no answer');
    }
    if (res.status === 429) {
      const seconds = Number(res.headers.get('retry-after'));
      throw new WalletRateLimitedError(Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 3600) * 1000 : 1000);
    }
    if (res.status >= 500) throw new WalletUnavailableError(`status ${res.status}`);
    if (res.status >= 400 && res.status !== 400 && res.status !== 401) {
      throw new WalletUnavailableError(`status ${res.status}`);
    }
    return res;
  }

  private async json(res: Response): Promise<unknown> {
    try {
      return await res.json();
    } catch {
      throw new WalletUnavailableError('an answer that is not JSON');
    }
  }
}
