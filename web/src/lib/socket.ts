import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@seatlink/contracts';
import { API_BASE_URL } from './api-client';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** How long an attempt to connect may take before it fails (a phone's network: a few round trips at most). */
export const CONNECT_TIMEOUT_MS = 8_000;

const options: Partial<ManagerOptions & SocketOptions> = {
  path: SOCKET_PATH,
  // The handshake is authenticated by the session cookie.
  withCredentials: true,
  // Connected only once the visitor is signed in (see app/realtime-bridge.tsx).
  autoConnect: false,
  // A WebSocket first: connected in one round trip, where long polling first took three requests (its handshake, the
  // connect packet, a poll) and a fourth to upgrade, each a round trip on a phone's network, in the middle of the
  // dashboard's load. Where no WebSocket can be opened (a proxy that refuses the upgrade), long polling is tried next.
  transports: ['websocket', 'polling'],
  tryAllTransports: true,
  // A WebSocket that a network lets open and then drops, or holds silent, before the server's handshake is no error to
  // the client: only this timeout (20 s by default) ends the attempt. Then the next attempts begin with long polling.
  timeout: CONNECT_TIMEOUT_MS,
};

let socket: AppSocket | null = null;

/**
 * After an attempt to connect that failed (no WebSocket opened, or one opened and never carried the handshake), the
 * socket connects the classic way: long polling first, upgraded to a WebSocket where one works (socket.io's documented
 * fallback for `transports`). Live updates then come on a network that drops WebSockets, where the WebSocket-first
 * attempts alone failed at every retry.
 */
export function fallBackToPollingAfterFailure(target: AppSocket): AppSocket {
  target.on('connect_error', () => {
    target.io.opts.transports = ['polling', 'websocket'];
  });
  return target;
}

/** The one socket of the app. Listeners may be attached before it connects. */
export function getSocket(): AppSocket {
  socket ??= fallBackToPollingAfterFailure(API_BASE_URL ? io(API_BASE_URL, options) : io(options));
  return socket;
}

export function connectSocket(): void {
  const current = getSocket();
  if (!current.connected) current.connect();
}

export function disconnectSocket(): void {
  socket?.disconnect();
}
