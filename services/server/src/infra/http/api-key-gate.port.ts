import type { ApiKeyScope } from '@seatlink/contracts';

/** A live API key, as a call made with it is admitted. */
export interface AdmittedKey {
  keyId: string;
  name: string;
  scopes: readonly ApiKeyScope[];
  userId: string;
}

/**
 * Who an API key (a call's bearer token) is: provided by the api-keys module, asked by the identity module's guard
 * (infra knows no module, and identity does not depend on api-keys).
 */
export interface ApiKeyGate {
  /** The live key of this token, its use noted; null for a token that is no key, unknown or revoked. */
  authenticate(token: string, ip: string): Promise<AdmittedKey | null>;
}

export const API_KEY_GATE = Symbol('ApiKeyGate');
