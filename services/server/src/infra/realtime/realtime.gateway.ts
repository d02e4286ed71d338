import { Inject, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type OnGatewayConnection, type OnGatewayInit, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import {
  ADMINS_ROOM,
  type ClientToServerEvents,
  type ServerToClientEvents,
  SOCKET_PATH,
  userRoom,
} from '@seatlink/contracts';
import type { Server, Socket } from 'socket.io';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { safeErrorMessage } from '../db/db-errors.js';
import type { LiveUpdate } from '../subscriptions/subscription.js';
import type { RealtimePublisher } from './realtime.publisher.js';
import {
  SOCKET_AUTHENTICATOR,
  type SocketAuthenticator,
  type SocketIdentity,
  sessionRoom,
} from './socket-authenticator.port.js';

export type TypedServer = Server<ClientToServerEvents, ServerToClientEvents>;

export function roomOf(update: LiveUpdate): string {
  return update.to === ADMINS_ROOM ? ADMINS_ROOM : userRoom(update.to.userId);
}

/**
 * The updates as messages: one per distinct event and payload, to all its rooms at once (a click goes to its owner
 * and to the admins as one broadcast, and a socket in both rooms receives it once).
 */
export function messagesOf(
  updates: readonly LiveUpdate[],
): Array<{ rooms: string[]; event: string; payload: unknown }> {
  const messages = new Map<string, { rooms: string[]; event: string; payload: unknown }>();
  for (const u of updates) {
    const key = `${u.event}\u0000${JSON.stringify(u.payload)}`;
    const room = roomOf(u);
    const message = messages.get(key);
    if (!message) messages.set(key, { rooms: [room], event: u.event, payload: u.payload });
    else if (!message.rooms.includes(room)) message.rooms.push(room);
  }
  return [...messages.values()];
}

/**
 * The socket.io gateway. A browser connects with its session cookie; the handshake is refused without a live
 * session. Each socket joins its user's room, its session's room, and admins also `admins`. A socket lives no longer
 * than its session: logout closes the session's sockets, a password reset or a ban all of the user's, and a periodic
 * check closes those whose session expired.
 */
@WebSocketGateway({ path: SOCKET_PATH })
export class RealtimeGateway implements OnGatewayInit, OnGatewayConnection, OnApplicationShutdown, RealtimePublisher {
  @WebSocketServer() server!: TypedServer;
  private readonly logger = new Logger('Realtime');
  private recheck: NodeJS.Timeout | null = null;

  constructor(
    @Inject(SOCKET_AUTHENTICATOR) private readonly authenticator: SocketAuthenticator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  afterInit(server: TypedServer) {
    server.use((socket, next) => {
      this.authenticator
        .authenticate(socket.handshake.headers.cookie)
        .then((identity) => {
          if (!identity) return next(new Error('Not authenticated'));
          socket.data = identity;
          next();
        })
        .catch((err: unknown) => {
          this.logger.warn(`handshake failed: ${safeErrorMessage(err)}`);
          next(new Error('Not authenticated'));
        });
    });
    this.recheck = setInterval(() => void this.closeExpired(), this.config.SOCKET_SESSION_RECHECK_MS);
    this.recheck.unref();
  }

  handleConnection(socket: Socket) {
    const identity = socket.data as Partial<SocketIdentity>;
    if (!identity.userId || !identity.sessionId) {
      socket.disconnect(true);
      return;
    }
    void socket.join([userRoom(identity.userId), sessionRoom(identity.sessionId)]);
    if (identity.isAdmin) void socket.join(ADMINS_ROOM);
  }

  /** Closes this process's sockets whose session is no longer live (expired, ended elsewhere). */
  async closeExpired(): Promise<void> {
    const sockets = [...this.server.of('/').sockets.values()];
    const ids = [...new Set(sockets.map((s) => (s.data as Partial<SocketIdentity>).sessionId).filter(Boolean))];
    if (ids.length === 0) return;
    try {
      const live = await this.authenticator.liveSessions(ids as string[]);
      for (const socket of sockets) {
        const id = (socket.data as Partial<SocketIdentity>).sessionId;
        if (id && !live.has(id)) {
          socket.emit('session.ended', { reason: 'expired' });
          socket.disconnect(true);
        }
      }
    } catch (err) {
      this.logger.warn(`session re-check failed: ${safeErrorMessage(err)}`);
    }
  }

  publish(updates: readonly LiveUpdate[]) {
    for (const m of messagesOf(updates)) {
      (this.server.to(m.rooms).emit as (ev: string, payload: unknown) => boolean)(m.event, m.payload);
    }
  }

  disconnectUser(userId: string, reason: string) {
    this.closeRoom(userRoom(userId), reason);
  }

  disconnectSession(sessionId: string, reason: string) {
    this.closeRoom(sessionRoom(sessionId), reason);
  }

  private closeRoom(room: string, reason: string) {
    this.server.to(room).emit('session.ended', { reason });
    this.server.in(room).disconnectSockets(true);
  }

  onApplicationShutdown() {
    if (this.recheck) clearInterval(this.recheck);
  }
}
