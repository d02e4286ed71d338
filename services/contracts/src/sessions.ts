import { z } from 'zod';
import { named, schema, timestampSchema } from './schema.js';

/** One of the user's signed-in sessions (GET /v1/me/sessions). */
export const signedInSessionSchema = schema(() =>
  named(
    'SignedInSession',
    z.object({
      /** A handle of the session (not its token, nor the token's hash). */
      id: z.string().regex(/^[0-9a-f]{32}$/),
      /** The session this request came with. */
      current: z.boolean(),
      /** When it signed in, and when it was last used (to the minute); ISO 8601. */
      created_at: timestampSchema,
      last_seen_at: timestampSchema,
      ip: z.string().nullable(),
      /** From its user agent: "Chrome 131", "iOS 18.1", "Apple iPhone"; null when it says nothing of it. */
      browser: z.string().nullable(),
      os: z.string().nullable(),
      device: z.string().nullable(),
    }),
  ),
);
export type SignedInSession = z.infer<typeof signedInSessionSchema>;

export const sessionsResponseSchema = schema(() =>
  named(
    'SessionsResponse',
    z.object({
      /** The current one first, then the most recently used. */
      sessions: z.array(signedInSessionSchema),
    }),
  ),
);
export type SessionsResponse = z.infer<typeof sessionsResponseSchema>;

export const SESSION_MESSAGES = {
  notFound: 'Session not found',
  ended: 'Signed out of that session',
  endedOthers: (n: number) => (n === 1 ? 'Signed out of 1 other session' : `Signed out of ${n} other sessions`),
} as const;

export const sessionIdParamSchema = schema(() => z.string().regex(/^[0-9a-f]{32}$/, SESSION_MESSAGES.notFound));

/** DELETE /v1/me/sessions (every other) and DELETE /v1/me/sessions/{id}. */
export const endSessionsResponseSchema = schema(() =>
  named(
    'EndSessionsResponse',
    z.object({
      message: z.string(),
      /** How many sessions were signed out. */
      ended: z.int().min(0),
    }),
  ),
);
export type EndSessionsResponse = z.infer<typeof endSessionsResponseSchema>;
