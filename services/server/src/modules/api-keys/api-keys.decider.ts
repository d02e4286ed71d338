import { API_KEY_MESSAGES, type ApiKeyScope, MAX_API_KEYS } from '@seatlink/contracts';
import { type Decider, DomainError } from '../../shared/event-sourcing/decider.js';
import type { ApiKeyEvent } from './api-keys.events.js';

/** A user's keys as the write side knows them: the ones not revoked. */
export interface ApiKeysState {
  live: ReadonlySet<string>;
  known: ReadonlySet<string>;
}

export type ApiKeysCommand =
  | {
      type: 'CreateApiKey';
      data: {
        userId: string;
        keyId: string;
        name: string;
        scopes: ApiKeyScope[];
        keyHash: string;
        prefix: string;
        now: string;
      };
    }
  | { type: 'RevokeApiKey'; data: { userId: string; keyId: string; now: string } };

const notFound = () => new DomainError(API_KEY_MESSAGES.notFound, 'API_KEY_NOT_FOUND', 404);

export const apiKeysDecider: Decider<ApiKeysState, ApiKeysCommand, ApiKeyEvent> = {
  initialState: () => ({ live: new Set(), known: new Set() }),
  evolve: (state, event) => {
    const live = new Set(state.live);
    if (event.type === 'ApiKeyCreated') {
      live.add(event.data.keyId);
      return { live, known: new Set(state.known).add(event.data.keyId) };
    }
    live.delete(event.data.keyId);
    return { ...state, live };
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateApiKey': {
        const { now, ...data } = command.data;
        // A retried request with the same key id made it already.
        if (state.known.has(data.keyId)) return [];
        if (state.live.size >= MAX_API_KEYS) {
          throw new DomainError(API_KEY_MESSAGES.limit, 'API_KEY_LIMIT', 409);
        }
        return [{ type: 'ApiKeyCreated', data: { ...data, at: now } }];
      }
      case 'RevokeApiKey': {
        const { userId, keyId, now } = command.data;
        if (!state.live.has(keyId)) throw notFound();
        return [{ type: 'ApiKeyRevoked', data: { userId, keyId, at: now } }];
      }
    }
  },
};
