import { describe, expect, it } from 'vitest';
import { fallBackToPollingAfterFailure, type AppSocket } from './socket';

/** A socket's events and its manager's options and engine, as fallBackToPollingAfterFailure reads them. */
function aSocket() {
  const listeners = new Map<string, () => void>();
  const engineListeners = new Map<string, () => void>();
  const engine = {
    transport: { name: 'polling' },
    once: (event: string, listener: () => void) => engineListeners.set(event, listener),
  };
  const manager = { opts: { transports: ['websocket', 'polling'] }, engine };
  const socket = {
    io: manager,
    on: (event: string, listener: () => void) => listeners.set(event, listener),
  };
  fallBackToPollingAfterFailure(socket as unknown as Pick<AppSocket, 'on' | 'io'>);
  return {
    transports: () => manager.opts.transports,
    emit: (event: string) => listeners.get(event)?.(),
    connectedOver: (name: string) => {
      engine.transport.name = name;
      listeners.get('connect')?.();
    },
    upgraded: () => engineListeners.get('upgrade')?.(),
  };
}

describe('the socket’s transports (lib/socket.ts)', () => {
  it('begin with long polling after an attempt that failed, and with a WebSocket again once one carries the connection', () => {
    const socket = aSocket();
    socket.emit('connect_error');
    expect(socket.transports()).toEqual(['polling', 'websocket']);

    // Connected by long polling: a network that drops WebSockets stays on it, reconnections included.
    socket.connectedOver('polling');
    expect(socket.transports()).toEqual(['polling', 'websocket']);
    // The upgrade to a WebSocket worked (the failure was something else: the server restarting).
    socket.upgraded();
    expect(socket.transports()).toEqual(['websocket', 'polling']);
  });

  it('keep a WebSocket first when the connection that follows a failure is a WebSocket’s', () => {
    const socket = aSocket();
    socket.emit('connect_error');
    socket.connectedOver('websocket');
    expect(socket.transports()).toEqual(['websocket', 'polling']);
  });
});
