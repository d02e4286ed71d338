import { useRef } from 'react';
import { useAuthStore } from '../features/auth/auth.store';
import { useCreditsStore } from '../lib/credits.store';
import { useServerEvent, useSocketConnection } from '../lib/realtime';
import { useSessionStore } from '../lib/session.store';

/**
 * Keeps the socket connected while someone is signed in (the handshake carries the session cookie) and applies the
 * pushes that concern the signed-in user: the balance goes to the credits slice; an ended session (logout elsewhere,
 * ban) re-checks the user, which signs out. Disconnects on logout.
 */
export function RealtimeBridge() {
  const userId = useSessionStore((s) => (s.isAuthenticated ? (s.user?.id ?? null) : null));
  // The user whose socket has connected once already: a later `connect` is a reconnect.
  const connectedFor = useRef<string | null>(null);

  useServerEvent('connect', () => {
    // After a reconnect a push may have been missed: re-read the user once.
    if (userId && connectedFor.current === userId) void useAuthStore.getState().refreshUser();
    connectedFor.current = userId;
  });
  useServerEvent('balance.updated', ({ user_id, balance }) => {
    useCreditsStore.getState().apply(user_id, balance);
  });
  useServerEvent('session.ended', () => {
    void useAuthStore.getState().refreshUser();
  });
  useSocketConnection(userId);

  return null;
}
