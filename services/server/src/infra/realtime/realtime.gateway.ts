import { Inject, Logger } from '@nestjs/common';
import { type OnGatewayConnection, type OnGatewayInit, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import { fastifyCookie } from '@fastify/cookie';
import {
  ADMINS_ROOM,
  type ClientToServerEvents,
  type ServerToClientEvents,
  SOCKET_PATH,
  userRoom,
} from '@seatlink/contracts';
import type { Server, Socket } from 'socket.io';
import { DATABASE } from '../db/database.module.js';
import type { Database } from '../db/database.js';
import type { LiveUpdate } from '../projections/projection.js';
import { findUserById } from '../../modules/identity/read-models/users/users.queries.js';
import { SESSION_COOKIE, SessionsService } from '../../modules/identity/sessions.service.js';
import type { RealtimePublisher } from './realtime.publisher.js';

export type TypedServer = Server<ClientToServerEvents, ServerToClientEvents>;

export function roomOf(update: LiveUpdate): string {
  return update.to === ADMINS_ROOM ? ADMINS_ROOM : userRoom(update.to.userId);
}

/**
 * The socket.io gateway. A browser connects with its session cookie; the handshake is refused without a live
 * session. Each socket joins its user's room, and admins also join `admins`.
 */
@WebSocketGateway({ path: SOCKET_PATH, cors: { origin: true, credentials: true } })
export class RealtimeGateway implements OnGatewayInit, OnGatewayConnection, RealtimePublisher {
  @WebSocketServer() server!: TypedServer;
  private readonly logger = new Logger('Realtime');

  constructor(
    private readonly sessions: SessionsService,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  afterInit(server: TypedServer) {
    server.use((socket, next) => {
      this.authenticate(socket)
        .then((ok) => (ok ? next() : next(new Error('Not authenticated'))))
        .catch((err: unknown) => {
          this.logger.warn(`handshake failed: ${String(err)}`);
          next(new Error('Not authenticated'));
        });
    });
  }

  handleConnection(socket: Socket) {
    const data = socket.data as { userId?: string; isAdmin?: boolean };
    if (!data.userId) {
      socket.disconnect(true);
      return;
    }
    void socket.join(userRoom(data.userId));
    if (data.isAdmin) void socket.join(ADMINS_ROOM);
  }

  private async authenticate(socket: Socket): Promise<boolean> {
    const header = socket.handshake.headers.cookie;
    if (!header) return false;
    const token = fastifyCookie.parse(header)[SESSION_COOKIE];
    const session = await this.sessions.resolve(token);
    if (!session) return false;
    const user = await findUserById(this.database.db, session.userId);
    if (!user || user.is_banned) return false;
    socket.data = { userId: user.id, isAdmin: user.is_admin };
    return true;
  }

  publish(updates: readonly LiveUpdate[]) {
    for (const u of updates) {
      (this.server.to(roomOf(u)).emit as (ev: string, payload: unknown) => boolean)(u.event, u.payload);
    }
  }

  /** Closes the sockets of a user whose session ended (logout elsewhere, ban). */
  disconnectUser(userId: string, reason: string) {
    this.server.to(userRoom(userId)).emit('session.ended', { reason });
    this.server.in(userRoom(userId)).disconnectSockets(true);
  }
}
