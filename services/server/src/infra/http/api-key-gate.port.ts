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
  /** The live key of this token; null for a token that is no key, unknown or revoked. */
  find(token: string): Promise<AdmittedKey | null>;
  /** Notes a call the key was let make (its last use, from where). */
  noteUse(keyId: string, ip: string): Promise<void>;
}

export const API_KEY_GATE = Symbol('ApiKeyGate');
