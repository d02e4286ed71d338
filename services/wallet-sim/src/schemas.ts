import { z } from 'zod';
import {
  arrivalDelaySchema,
  errorRateSchema,
  latencySchema,
  requestsPerSecondSchema,
  tokenTtlSchema,
} from './config.js';
import { MAX_SLUG_LENGTH } from './logos.js';
import { WalletSimError } from './wallet-sim.store.js';

/** Parses input or answers 400 invalid_request naming what is wrong. */
export function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const detail = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'input'}: ${issue.message}`)
    .join('; ');
  throw new WalletSimError(400, 'invalid_request', detail.slice(0, 500));
}

/** A trimmed, non-empty, bounded line of text. */
const text = (max: number) => z.string().trim().min(1).max(max);
const email = z.string().trim().toLowerCase().max(254).pipe(z.email());
const password = z.string().min(1).max(200);
const DAY_MS = 86_400_000;

/** Pass ids travel in paths: letters, digits and `._:-`. */
export const passId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._:-]+$/, 'only letters, digits and . _ : - are allowed');

export const emailParam = z.object({ email: z.string().trim().toLowerCase().min(1).max(254) });
export const passParams = z.object({ email: z.string().trim().toLowerCase().min(1).max(254), passId });
export const passIdParam = z.object({ passId });

// ---- provider API ------------------------------------------------------------------------------------------------

/** Login: any strings (an unknown address is a 401 like a wrong password), bounded. */
export const sessionBody = z.object({ email: z.string().min(1).max(320), password: z.string().min(1).max(200) });

export const MAX_CURSOR_LENGTH = 512;
export const passesQuery = z.object({
  cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'must be a whole number from 1 to 200')
    .transform(Number)
    .pipe(z.number().int().min(1).max(200))
    .default(100),
});

const cursorPayload = z.object({ v: z.literal(1), after: passId }).strict();

/** An opaque cursor: the last pass id of the page, wrapped. */
export const encodeCursor = (after: string) =>
  Buffer.from(JSON.stringify({ v: 1, after }), 'utf8').toString('base64url');

export function decodeCursor(cursor: string): string {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new WalletSimError(400, 'invalid_request', 'cursor: not a cursor from this API');
  }
  const parsed = cursorPayload.safeParse(payload);
  if (!parsed.success) throw new WalletSimError(400, 'invalid_request', 'cursor: not a cursor from this API');
  return parsed.data.after;
}

// ---- control API -------------------------------------------------------------------------------------------------

export const walletBody = z.object({ email, password, first_name: text(100), last_name: text(100) }).strict();

export const passwordBody = z.object({ password }).strict();

const seat = z.object({ section: text(100), row: text(32), seat: text(32) }).strict();
const nextGame = z
  .object({
    title: text(200),
    date: z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString()),
  })
  .strict();
const logoSlug = z
  .string()
  .max(MAX_SLUG_LENGTH)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case letters, digits and single dashes');
const visibleAfterMs = z
  .number()
  .int()
  .min(0)
  .max(30 * DAY_MS);

export const newPassBody = z
  .object({
    id: passId.optional(),
    barcode: text(200).optional(),
    event: z.object({ title: text(200), subtitle: text(200), logo_slug: logoSlug.optional() }).strict(),
    venue: z.object({ name: text(200) }).strict(),
    seat: seat.nullable().optional(),
    next_game: nextGame.nullable().optional(),
    visible_after_ms: visibleAfterMs.optional(),
  })
  .strict();

/** A pass answered as given (`pass`: any JSON); `id` only orders it among the wallet's passes and names it here. */
export const rawPassBody = z
  .object({ id: passId.optional(), pass: z.unknown(), visible_after_ms: visibleAfterMs.optional() })
  .strict()
  .refine((body) => body.pass !== undefined, { message: 'pass is required', path: ['pass'] });

export const passChangesBody = z
  .object({
    barcode: text(200).optional(),
    event: z
      .object({ title: text(200).optional(), subtitle: text(200).optional(), logo_slug: logoSlug.optional() })
      .strict()
      .optional(),
    venue: z
      .object({ name: text(200) })
      .strict()
      .optional(),
    seat: seat.nullable().optional(),
    next_game: nextGame.nullable().optional(),
  })
  .strict();

export const moveBody = z.object({ from: email, to: email, visible_after_ms: visibleAfterMs.optional() }).strict();

export const configBody = z
  .object({
    errorRate: errorRateSchema.optional(),
    latencyMs: latencySchema.optional(),
    rateLimit: z.object({ requestsPerSecond: requestsPerSecondSchema }).strict().optional(),
    arrivalDelayMaxMs: arrivalDelaySchema.optional(),
    tokenTtlMs: tokenTtlSchema.optional(),
  })
  .strict();
