import type { User } from '@seatlink/contracts';

/**
 * Who is signed in with a session token: provided by the identity module (infra knows no module), so what infra
 * serves outside the Nest routes (the queue board) admits callers exactly as the routes do.
 */
export interface SessionGate {
  /**
   * The user of a live session and the session's id (its token's hash), or why not: no token, no live session
   * (unknown, ended, idle too long or past its end), a banned user (whose sessions end there), or, when `need` is
   * 'admin', a user who is not one.
   */
  authenticate(token: string | undefined, need?: 'user' | 'admin'): Promise<Admission>;
}

/** `mfa-enrolment`: an admin without a second factor, where ADMIN_MFA=required. */
export type Refusal = 'none' | 'expired' | 'banned' | 'not-admin' | 'mfa-enrolment';

export type Admission = { ok: true; user: User; sessionId: string } | { ok: false; refused: Refusal };

export const SESSION_GATE = Symbol('SessionGate');
