import { rowProjection } from '../../../infra/subscriptions/row-projection.js';
import type { ApiKeyEvent } from '../api-keys.events.js';
import { apiKeys } from '../api-keys.schema.js';

/** `api_keys`: each key made, revoked or not (a revoked key answers no call). */
export const apiKeysProjection = rowProjection<typeof apiKeys, ApiKeyEvent>({
  name: 'api-keys',
  table: apiKeys,
  key: 'keyId',
  handles: ['ApiKeyCreated', 'ApiKeyRevoked'],
  keyOf: (event) => event.data.keyId,
  evolve: (row, event) => {
    if (event.type === 'ApiKeyCreated') {
      const d = event.data;
      return {
        keyId: d.keyId,
        userId: d.userId,
        name: d.name,
        scopes: d.scopes,
        keyHash: d.keyHash,
        prefix: d.prefix,
        createdAt: new Date(d.at),
        revokedAt: null,
      };
    }
    return row ? { ...row, revokedAt: new Date(event.data.at) } : null;
  },
});
