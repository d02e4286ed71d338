import { useEffect, useRef, useState } from 'react';
import type { ServerToClientEvents } from '@seatlink/contracts';
import { connectSocket, disconnectSocket, getSocket } from './socket';

/**
 * The events a component may listen to: every push of the contract's event map, plus `connect` (each (re)connection
 * of the socket, e.g. to re-read what a push may have missed).
 */
export type ListenEvents = ServerToClientEvents & { connect: () => void };
export type ListenEventName = keyof ListenEvents;

/**
 * The one way the app listens to the socket: calls `handler` for every `event` while the component is mounted. The
 * latest `handler` is used, so it need not be memoised. Lint keeps every other module away from lib/socket.
 */
export function useServerEvent<E extends ListenEventName>(event: E, handler: ListenEvents[E]): void {
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  }, [handler]);

  useEffect(() => {
    const socket = getSocket();
    const listener = ((...args: Parameters<ListenEvents[E]>) =>
      (handlerRef.current as (...a: Parameters<ListenEvents[E]>) => void)(...args)) as never;
    socket.on(event as never, listener);
    return () => {
      socket.off(event as never, listener);
    };
  }, [event]);
}

/**
 * Keeps the socket connected while `userId` is set (someone is signed in: the handshake carries the session cookie),
 * and connects afresh for another user.
 */
export function useSocketConnection(userId: string | null): void {
  useEffect(() => {
    if (!userId) return;
    connectSocket();
    return () => disconnectSocket();
  }, [userId]);
}

/**
 * Whether live updates are interrupted (the server said `live.interrupted`: pushes from other processes do not reach
 * this page for now). Every (re)connection starts afresh — a server still cut off says so again at once. When they
 * flow again (`live.restored`) the socket connects afresh, after a moment's jitter so that every open page does not
 * come back at once, and every reader of `connect` reads again what a push may have missed.
 */
export function useLiveUpdatesInterrupted(): boolean {
  const [interrupted, setInterrupted] = useState(false);
  useServerEvent('connect', () => setInterrupted(false));
  useServerEvent('live.interrupted', () => setInterrupted(true));
  useServerEvent('live.restored', () => {
    setInterrupted(false);
    setTimeout(() => {
      const socket = getSocket();
      // Not when it was closed meanwhile (signed out).
      if (!socket.connected) return;
      socket.disconnect();
      socket.connect();
    }, Math.random() * RECONNECT_JITTER_MS);
  });
  return interrupted;
}

/** How far apart the pages that read again after live updates resume are spread. */
const RECONNECT_JITTER_MS = 2000;
