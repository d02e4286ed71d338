/**
 * The socket.io event map: every event the server pushes to browsers.
 * Rooms: `user:<id>` for one user's own changes, `admins` for every admin.
 */
export interface ServerToClientEvents {
  /** The user's credit balance changed. */
  'balance.updated': (payload: { user_id: string; balance: number }) => void;
  /** A user's row in the admin users list changed. */
  'admin.user.updated': (payload: { user_id: string }) => void;
  /** The session behind this socket ended (logout, ban); the client should re-check its status. */
  'session.ended': (payload: { reason: string }) => void;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ClientToServerEvents {}

export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];

export const userRoom = (userId: string): string => `user:${userId}`;
export const ADMINS_ROOM = 'admins';

/** The socket.io path, shared by the server gateway and the browser client. */
export const SOCKET_PATH = '/socket.io';
