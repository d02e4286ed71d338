/**
 * Who a socket is, from its handshake's cookies: provided by the identity module (infra knows no module), so the
 * gateway can admit a socket and later ask whether its session still lives.
 */
export interface SocketIdentity {
  userId: string;
  isAdmin: boolean;
  /** The session behind the socket (its token's hash): its sockets close when it ends. */
  sessionId: string;
}

export interface SocketAuthenticator {
  /** The identity of a live session named by the cookie header, or null. */
  authenticate(cookieHeader: string | undefined): Promise<SocketIdentity | null>;
  /** Which of these sessions are still live (not ended, expired or banned). */
  liveSessions(sessionIds: readonly string[]): Promise<Set<string>>;
}

export const SOCKET_AUTHENTICATOR = Symbol('SocketAuthenticator');

/** The room of every socket of one session. */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
