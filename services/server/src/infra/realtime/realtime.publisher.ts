import type { LiveUpdate } from '../projections/projection.js';

/**
 * Sends live updates to browsers. The one place that decides rooms: `user:<id>` and `admins`.
 * In an API process it is the socket.io server (with the Redis adapter when REDIS_URL is set);
 * in a worker it is a socket.io Redis emitter, which reaches browsers on every API process.
 */
export interface RealtimePublisher {
  publish(updates: readonly LiveUpdate[]): void;
}

export const REALTIME_PUBLISHER = Symbol('RealtimePublisher');
