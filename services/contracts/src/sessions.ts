import { z } from 'zod';
import { schema } from './schema.js';

/** One of the user's signed-in sessions (GET /v1/me/sessions). */
export interface SignedInSession {
  /** A handle of the session (not its token, nor the token's hash). */
  id: string;
  /** The session this request came with. */
  current: boolean;
  /** When it signed in, and when it was last used (to the minute); ISO 8601. */
  created_at: string;
  last_seen_at: string;
  ip: string | null;
  /** From its user agent: "Chrome 131", "iOS 18.1", "Apple iPhone"; null when it says nothing of it. */
  browser: string | null;
  os: string | null;
  device: string | null;
}

export interface SessionsResponse {
  /** The current one first, then the most recently used. */
  sessions: SignedInSession[];
}

export const SESSION_MESSAGES = {
  notFound: 'Session not found',
  ended: 'Signed out of that session',
  endedOthers: (n: number) => (n === 1 ? 'Signed out of 1 other session' : `Signed out of ${n} other sessions`),
} as const;

export const sessionIdParamSchema = schema(() => z.string().regex(/^[0-9a-f]{32}$/, SESSION_MESSAGES.notFound));

/** DELETE /v1/me/sessions (every other) and DELETE /v1/me/sessions/{id}. */
export interface EndSessionsResponse {
  message: string;
  ended: number;
}
