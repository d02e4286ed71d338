import type { ApiKeyScope } from '@seatlink/contracts';
import type { EventStore } from '../../../infra/event-store/event-store.port.js';
import { type ApiKeyEvent, apiKeysStream } from '../api-keys.events.js';

/** A key that worked at a moment (made, not yet revoked). */
export interface ApiKeyAt {
  keyId: string;
  name: string;
  scopes: ApiKeyScope[];
  createdAt: string;
}

/** The user's API keys that worked at a moment, oldest first, from their stream up to it. */
export async function apiKeysAt(store: EventStore, userId: string, at: Date): Promise<ApiKeyAt[]> {
  const live = new Map<string, ApiKeyAt>();
  for (const recorded of (await store.readStream(apiKeysStream(userId))).events) {
    if (recorded.createdAt > at) break;
    const event = { type: recorded.type, data: recorded.data } as ApiKeyEvent;
    if (event.type === 'ApiKeyCreated') {
      const { keyId, name, scopes } = event.data;
      live.set(keyId, { keyId, name, scopes, createdAt: recorded.createdAt.toISOString() });
    } else {
      live.delete(event.data.keyId);
    }
  }
  return [...live.values()];
}
