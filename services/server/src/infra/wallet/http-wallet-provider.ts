import { z } from 'zod';
import { cleanOptionalText, cleanText, hasUnsafeCharacters, PASS_TEXT_LIMITS } from './provider-text.js';
import {
  type SkippedPass,
  WalletAuthError,
  type WalletPass,
  type WalletPassPage,
  type WalletProvider,
  WalletRateLimitedError,
  WalletSignInLockedError,
  type WalletSession,
  WalletTokenError,
  WalletUnavailableError,
} from './wallet-provider.port.js';

/** Longer than this, an id or barcode is not one (they cannot be cut: two passes would become one). */
const MAX_ID_LENGTH = 200;
const MAX_BARCODE_LENGTH = 500;
/** Next games this far from the present are not dates a pass can mean (year 10000, 1900, ...). */
const EARLIEST_GAME = Date.UTC(2000, 0, 1);
const LATEST_GAME = Date.UTC(2100, 0, 1);
/** An answer larger than this is refused whole (a page holds at most 1000 passes). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
/** Answers that take longer than this count as the provider being down. */
const TIMEOUT_MS = 15_000;
/** A token longer than a year means nothing sensible; the sync signs in again long before. */
const MAX_TOKEN_LIFE_SECONDS = 366 * 24 * 3600;

/** Provider text, cleaned (NFC, no control or bidi formatting characters, no lone surrogates) and cut to `max`. */
const text = (max: number) => z.string().transform((value) => cleanText(value, max));
/** The same, optional: absent, null or nothing left after cleaning is null. */
const optionalText = (max: number) =>
  z
    .string()
    .nullish()
    .transform((value) => cleanOptionalText(value, max));

/**
 * An id the product keys on (a pass, an account at the provider): cleaning it would make two ids one, so it must be
 * clean as sent — 1 to 200 characters, no control, bidi formatting or lone surrogate, no leading or trailing space.
 */
const identifier = z
  .string()
  .min(1, 'empty')
  .max(MAX_ID_LENGTH, `longer than ${MAX_ID_LENGTH} characters`)
  .refine((value) => value.trim() === value && !hasUnsafeCharacters(value), 'holds characters an id cannot');

/**
 * A URL the browser will follow or load (a logo, the save page): http or https only, or dropped — a provider's
 * `javascript:` URL must never reach a link's page, and a value of any other type is no URL.
 */
const webUrl = z
  .unknown()
  .optional()
  .transform((value) => {
    if (typeof value !== 'string' || !value || value.length > 2000) return null;
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
    } catch {
      return null;
    }
  });

/** A next game's date: ISO 8601 with a time zone, between 2000 and 2100; answered in UTC. */
const gameDate = z
  .string()
  .max(64, 'not a date')
  .nullish()
  .transform((value, ctx) => {
    if (value === null || value === undefined) return null;
    const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)
      ? Date.parse(value)
      : Number.NaN;
    if (!(at >= EARLIEST_GAME && at < LATEST_GAME)) {
      ctx.addIssue({ code: 'custom', message: 'not a date between 2000 and 2100' });
      return z.NEVER;
    }
    return new Date(at).toISOString();
  });

const sessionSchema = z.object({
  access_token: z
    .string()
    .min(1)
    .max(4096)
    .regex(/^[\x21-\x7e]+$/),
  expires_in: z
    .number()
    .positive()
    .finite()
    .transform((seconds) => Math.min(seconds, MAX_TOKEN_LIFE_SECONDS)),
  account: z.object({
    id: identifier,
    email: text(254),
    first_name: optionalText(100),
    last_name: optionalText(100),
    display_name: optionalText(200),
  }),
});

/** One pass: the types checked, its text cleaned. A pass that fails this is skipped (and reported), not the page. */
const passSchema = z.object({
  id: identifier,
  barcode: z
    .string()
    .nullish()
    .transform((value) => (value ? cleanText(value, MAX_BARCODE_LENGTH + 1) : ''))
    .refine((value) => value.length <= MAX_BARCODE_LENGTH, `longer than ${MAX_BARCODE_LENGTH} characters`),
  event: z.object({
    title: text(PASS_TEXT_LIMITS.title).refine((value) => value !== '', 'empty'),
    subtitle: optionalText(PASS_TEXT_LIMITS.subtitle),
    logo_url: webUrl,
  }),
  venue: z.object({ name: optionalText(PASS_TEXT_LIMITS.venueName) }).nullish(),
  seat: z
    .object({
      section: optionalText(PASS_TEXT_LIMITS.section),
      row: optionalText(PASS_TEXT_LIMITS.row),
      seat: optionalText(PASS_TEXT_LIMITS.seat),
    })
    .nullish(),
  next_game: z.object({ title: optionalText(PASS_TEXT_LIMITS.nextGame), date: gameDate }).nullish(),
  save_url: webUrl,
});

/** A page: its passes are checked one by one (below); a page of the wrong shape is the provider failing. */
const passesSchema = z.object({
  passes: z.array(z.unknown()).max(1000),
  next_cursor: z
    .string()
    .max(2000)
    .regex(/^[\x21-\x7e]*$/)
    .nullish(),
});
const errorSchema = z.object({ error: z.string().max(100) }).partial();

/** The first problem of a pass, as `field: what is wrong` (zod's messages name types, never the value). */
function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join('.') : 'pass';
  return cleanText(`${where}: ${issue?.message ?? 'unusable'}`, 200);
}

/** A pass of the page, or why it is skipped. */
export function readPass(raw: unknown): { pass: WalletPass } | { skipped: SkippedPass } {
  const parsed = passSchema.safeParse(raw);
  if (!parsed.success) {
    const id = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as { id?: unknown }).id : null;
    // As long as a valid id may be: a ticket kept from an earlier sync is known by it, and stays.
    const passId = typeof id === 'string' ? cleanOptionalText(id, MAX_ID_LENGTH) : null;
    const reason =
      raw === null || typeof raw !== 'object' || Array.isArray(raw) ? 'pass: not an object' : reasonOf(parsed.error);
    return { skipped: { passId, reason } };
  }
  const p = parsed.data;
  return {
    pass: {
      id: p.id,
      barcode: p.barcode,
      title: p.event.title,
      subtitle: p.event.subtitle,
      logoUrl: p.event.logo_url ?? null,
      saveUrl: p.save_url ?? null,
      venueName: p.venue?.name ?? null,
      section: p.seat?.section ?? null,
      row: p.seat?.row ?? null,
      seat: p.seat?.seat ?? null,
      nextGame: p.next_game ? { title: p.next_game.title, date: p.next_game.date } : null,
    },
  };
}

/**
 * The wallet provider over HTTP (see services/wallet-sim/README.md for the API). Every answer is validated and every
 * string in it cleaned here, at the port: a provider is outside input like any other, and nothing it sends may make an
 * event unstorable or a page misleading. A pass that is still unusable is skipped and reported; the others sync.
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
    const firstName = a.first_name ?? '';
    const lastName = a.last_name ?? '';
    return {
      accessToken: body.data.access_token,
      expiresAt: new Date(Date.now() + body.data.expires_in * 1000),
      account: {
        id: a.id,
        email: a.email,
        firstName,
        lastName,
        displayName: a.display_name ?? ([firstName, lastName].filter(Boolean).join(' ') || a.email),
      },
    };
  }

  async listPasses(accessToken: string, cursor: string | null): Promise<WalletPassPage> {
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
    const passes: WalletPass[] = [];
    const skipped: SkippedPass[] = [];
    for (const raw of body.data.passes) {
      const read = readPass(raw);
      if ('pass' in read) passes.push(read.pass);
      else skipped.push(read.skipped);
    }
    return { passes, skipped, nextCursor: body.data.next_cursor || null };
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
      const retryAfterMs = Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 3600) * 1000 : 1000;
      // Too many failed sign-ins (to one wallet, or from here): that sign-in waits, every other call goes on.
      const refusal = await this.json(res).catch(() => null);
      if ((refusal as { error?: unknown } | null)?.error === 'too_many_attempts') {
        throw new WalletSignInLockedError(retryAfterMs);
      }
      throw new WalletRateLimitedError(retryAfterMs);
    }
    if (res.status >= 500 || (res.status >= 400 && res.status !== 400 && res.status !== 401)) {
      await res.body?.cancel().catch(() => undefined);
      throw new WalletUnavailableError(`status ${res.status}`);
    }
    return res;
  }

  /** The answer's JSON, read up to MAX_ANSWER_BYTES (a larger one is refused before it is all in memory). */
  private async json(res: Response): Promise<unknown> {
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > MAX_ANSWER_BYTES) {
      await res.body?.cancel().catch(() => undefined);
      throw new WalletUnavailableError('an answer that is too large');
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      if (res.body) {
        for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
          size += chunk.byteLength;
          // Leaving the loop by throwing cancels the rest of the answer.
          if (size > MAX_ANSWER_BYTES) throw new WalletUnavailableError('an answer that is too large');
          chunks.push(chunk);
        }
      }
    } catch (err) {
      if (err instanceof WalletUnavailableError) throw err;
      throw new WalletUnavailableError(err instanceof Error ? err.name : 'an answer cut short');
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    } catch {
      throw new WalletUnavailableError('an answer that is not JSON');
    }
  }
}
