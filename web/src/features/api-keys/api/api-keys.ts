import {
  routes,
  type ApiKeysResponse,
  type CreateApiKeyRequest,
  type CreatedApiKeyResponse,
} from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/me/api-keys. */
export function listApiKeys(): Promise<ApiKeysResponse> {
  return callApi(routes.listApiKeys);
}

/** POST /v1/me/api-keys {name, scopes}: the key, shown this once. */
export function createApiKey(body: CreateApiKeyRequest): Promise<CreatedApiKeyResponse> {
  return callApi(routes.createApiKey, { body });
}

/** DELETE /v1/me/api-keys/{id}: revoked at once. */
export function revokeApiKey(id: string): Promise<{ message: string }> {
  return callApi(routes.revokeApiKey, { params: { id } });
}
