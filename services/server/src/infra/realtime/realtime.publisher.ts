import type { LiveUpdate } from '../subscriptions/subscription.js';

/**
 * Sends live updates to browsers. The one place that decides rooms: `user:<id>` and `admins`.
 * In an API process it is the socket.io server (with the Redis adapter when REDIS_URL is set);
 * in a worker it is a socket.io Redis emitter, which reaches browsers on every API process.
 */
export interface RealtimePublisher {
  publish(updates: readonly LiveUpdate[]): void;
  /** Tells a user's open dashboards their session ended, and closes their sockets (every session of theirs). */
  disconnectUser(userId: string, reason: string): void;
  /** The same for the sockets of one session (a logout). */
  disconnectSession(sessionId: string, reason: string): void;
}

export const REALTIME_PUBLISHER = Symbol('RealtimePublisher');
