import type { LinkClaimant } from './tickets.js';

/** A link's count of clicks so far, in a `distributions.clicked` push. */
export interface LinkClicks {
  user_id: string;
  ticket_id: string;
  distribution_id: string;
  clicks: number;
  /** Who made the latest click counted. */
  claimed_by?: LinkClaimant;
}

/**
 * The socket.io event map: every event the server pushes to browsers.
 * Rooms: `user:<id>` for one user's own changes, `admins` for every admin.
 */
export interface ServerToClientEvents {
  /** The user's credit balance changed. */
  'balance.updated': (payload: { user_id: string; balance: number }) => void;
  /** A user's row in the admin users list changed. */
  'admin.user.updated': (payload: { user_id: string }) => void;
  /** One of the user's wallet accounts changed (linked, synced, in error, deleted); admins get it for every account. */
  'account.updated': (payload: { account_id: string; user_id: string }) => void;
  /** A sync of a wallet account started, moved on, or ended (the account card's progress bar). */
  'account.sync': (payload: {
    account_id: string;
    state: 'running' | 'done' | 'failed';
    /** Passes read from the wallet so far. */
    fetched: number;
  }) => void;
  /** Tickets of the user came, changed or went (a sync, a duplicate resolved). */
  'tickets.updated': (payload: { account_id: string; user_id: string }) => void;
  /** A ticket's link was made or recalled. The owner gets it, and admins for every link. */
  'distribution.updated': (payload: { user_id: string; ticket_id: string; distribution_id: string }) => void;
  /**
   * Links were clicked: each one's count so far. Coalesced per room — the first click after a quiet spell at once,
   * then at most one push per quarter second with every link clicked since — so a box office of thousands of claims
   * a second sends each dashboard a few pushes a second, not one per click. The owner gets their links', admins
   * every link's.
   */
  'distributions.clicked': (payload: { links: LinkClicks[] }) => void;
  /** The user's notifications changed (one came or grew, some were read): `unread` is how many are unread now. */
  'notifications.updated': (payload: { user_id: string; unread: number }) => void;
  /** A user's audit log has new entries (a distribution or recall, refused ones too); admins only. */
  'audit.updated': (payload: { user_id: string }) => void;
  /** The session behind this socket ended (logout, ban); the client should re-check its status. */
  'session.ended': (payload: { reason: string }) => void;
  /**
   * Live updates from other processes do not reach this socket for now (Redis is away): what the page shows may be
   * out of date until `live.restored`.
   */
  'live.interrupted': (payload: { reason: string }) => void;
  /** Live updates flow again: the client reads again what a push may have missed meanwhile. */
  'live.restored': (payload: Record<string, never>) => void;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ClientToServerEvents {}

export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];

export const userRoom = (userId: string): string => `user:${userId}`;
export const ADMINS_ROOM = 'admins';

/** The socket.io path, shared by the server gateway and the browser client. */
export const SOCKET_PATH = '/socket.io';
