import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@seatlink/contracts';
import { API_BASE_URL } from './api-client';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

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
};

let socket: AppSocket | null = null;

/** The one socket of the app. Listeners may be attached before it connects. */
export function getSocket(): AppSocket {
  socket ??= API_BASE_URL ? io(API_BASE_URL, options) : io(options);
  return socket;
}

export function connectSocket(): void {
  const current = getSocket();
  if (!current.connected) current.connect();
}

export function disconnectSocket(): void {
  socket?.disconnect();
}
