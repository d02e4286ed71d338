import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@seatlink/contracts';
import { API_BASE_URL } from './api-client';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** How the socket connects: a WebSocket first; long polling first, upgraded where a WebSocket works. */
const WEBSOCKET_FIRST = ['websocket', 'polling'];
const POLLING_FIRST = ['polling', 'websocket'];

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
  transports: [...WEBSOCKET_FIRST],
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
 * attempts alone failed at every retry. Once a connection is carried by a WebSocket again (an attempt that failed for
 * another reason: the server restarting), the next one begins with a WebSocket again.
 */
export function fallBackToPollingAfterFailure<S extends Pick<AppSocket, 'on' | 'io'>>(target: S): S {
  const manager = target.io;
  target.on('connect_error', () => {
    manager.opts.transports = [...POLLING_FIRST];
  });
  target.on('connect', () => {
    const engine = manager.engine;
    const webSocketWorks = () => {
      manager.opts.transports = [...WEBSOCKET_FIRST];
    };
    if (engine.transport.name === 'websocket') webSocketWorks();
    else engine.once('upgrade', webSocketWorks);
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
