import { useEffect } from 'react';
import type { ServerEventPayload } from '@seatlink/contracts';
import { useAuthStore } from '../features/auth/auth.store';
import { connectSocket, disconnectSocket, getSocket } from '../lib/socket';

/**
 * Keeps the socket connected while someone is signed in (the handshake carries the session cookie) and applies the
 * pushes that concern the signed-in user. Disconnects on logout.
 */
export function RealtimeBridge() {
  const userId = useAuthStore((s) => (s.isAuthenticated ? (s.user?.id ?? null) : null));

  useEffect(() => {
    if (!userId) return;
    const socket = getSocket();
    const auth = useAuthStore.getState;
    let connectedBefore = false;

    const onConnect = () => {
      // After a reconnect a push may have been missed: re-read the user once.
      if (connectedBefore) void auth().refreshUser();
      connectedBefore = true;
    };
    const onBalance = ({ user_id, balance }: ServerEventPayload<'balance.updated'>) => {
      auth().setBalance(user_id, balance);
    };
    const onSessionEnded = () => {
      void auth().refreshUser();
    };

    socket.on('connect', onConnect);
    socket.on('balance.updated', onBalance);
    socket.on('session.ended', onSessionEnded);
    connectSocket();

    return () => {
      socket.off('connect', onConnect);
      socket.off('balance.updated', onBalance);
      socket.off('session.ended', onSessionEnded);
      disconnectSocket();
    };
  }, [userId]);

  return null;
}
