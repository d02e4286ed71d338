import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { apiKeysDecider } from './api-keys.decider.js';
import type { ApiKeyEvent } from './api-keys.events.js';

describe('API keys decider', () => {
  const spec = deciderSpec(apiKeysDecider);
  const now = '2026-11-27T12:00:00.000Z';
  const key = (keyId: string) => ({
    userId: 'u1',
    keyId,
    name: `Key ${keyId}`,
    scopes: ['links:write' as const],
    keyHash: `hash-${keyId}`,
    prefix: 'sl_live_AbCd',
  });
  const create = (keyId: string) => ({ type: 'CreateApiKey' as const, data: { ...key(keyId), now } });
  const created = (keyId: string): ApiKeyEvent => ({ type: 'ApiKeyCreated', data: { ...key(keyId), at: now } });
  const revoked = (keyId: string): ApiKeyEvent => ({ type: 'ApiKeyRevoked', data: { userId: 'u1', keyId, at: now } });
  const revoke = (keyId: string) => ({ type: 'RevokeApiKey' as const, data: { userId: 'u1', keyId, now } });

  it('makes a key, once per id (a retry makes nothing)', () => {
    spec
      .given([])
      .when(create('k1'))
      .then([created('k1')]);
    spec
      .given([created('k1')])
      .when(create('k1'))
      .then([]);
    spec
      .given([created('k1'), revoked('k1')])
      .when(create('k1'))
      .then([]);
  });

  it('holds at most 25 live keys; a revoked one makes room', () => {
    const many = Array.from({ length: 25 }, (_, i) => created(`k${i}`));
    spec.given(many).when(create('k99')).thenThrows({ code: 'API_KEY_LIMIT' });
    spec
      .given([...many, revoked('k3')])
      .when(create('k99'))
      .then([created('k99')]);
  });

  it('revokes a live key of the user; an unknown or revoked one is not found', () => {
    spec
      .given([created('k1')])
      .when(revoke('k1'))
      .then([revoked('k1')]);
    spec
      .given([created('k1'), revoked('k1')])
      .when(revoke('k1'))
      .thenThrows({ code: 'API_KEY_NOT_FOUND' });
    spec.given([]).when(revoke('k1')).thenThrows({ code: 'API_KEY_NOT_FOUND' });
  });
});
