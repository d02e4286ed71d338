import { z } from 'zod';
import { named, schema, timestampSchema } from './schema.js';
import { hasForbiddenCharacters } from './text.js';

/**
 * Personal API keys: a user's own calls from their own systems, `Authorization: Bearer sl_live_…`, within the scopes
 * the key was given. A key is shown once, when it is made (POST /v1/me/api-keys, behind a fresh proof); the server keeps
 * its SHA-256. Keys never make admin calls, nor the cookie-only ones (signing in, sessions, second factors, passkeys,
 * keys themselves, top-up). A call that asks a session for a fresh proof (a webhook endpoint's changes) takes a key
 * with its scope as that proof: the key was made behind one.
 */
export const API_KEY_SCOPES = [
  'tickets:read',
  'links:read',
  'links:write',
  'notifications:read',
  'notifications:write',
  'webhooks:read',
  'webhooks:write',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** What each scope lets a key do, as the settings page and /docs say it. */
export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'tickets:read': 'Read your tickets',
  'links:read': 'Read your links (export)',
  'links:write': 'Make, edit and recall links',
  'notifications:read': 'Read your notifications and their e-mail settings',
  'notifications:write': 'Mark notifications read, change their e-mail settings',
  'webhooks:read': 'Read your webhook endpoints and their deliveries',
  'webhooks:write': 'Add, change, roll, test and delete webhook endpoints, resend deliveries',
};

/** Every key starts so: recognisable in logs and by secret scanners. */
export const API_KEY_PREFIX = 'sl_live_';
/** A key: the prefix and 43 characters of base64url (32 random bytes). */
export const API_KEY_PATTERN = /^sl_live_[A-Za-z0-9_-]{43}$/;
/** Keys one user may hold (revoked ones not counted). */
export const MAX_API_KEYS = 25;
export const API_KEY_NAME_MAX = 60;

export const API_KEY_MESSAGES = {
  created: 'API key created',
  revoked: 'API key revoked',
  notFound: 'API key not found',
  limit: `You can have at most ${MAX_API_KEYS} API keys`,
  name: `Give the key a name of at most ${API_KEY_NAME_MAX} characters`,
  scopes: `Choose the key's scopes: ${API_KEY_SCOPES.join(', ')}`,
  invalid: 'This API key is not valid: it is unknown or revoked',
  scope: 'This API key does not have the scope this call needs: {scope}',
  notForKeys: 'This call cannot be made with an API key',
} as const;

/** GET /v1/me/api-keys: a key as listed (never the key itself). */
export const apiKeySchema = schema(() =>
  named(
    'ApiKey',
    z.object({
      id: z.uuid(),
      name: z.string(),
      scopes: z.array(z.enum(API_KEY_SCOPES)),
      /** The key's first characters ("sl_live_AbCd"), to tell keys apart. */
      prefix: z.string().startsWith(API_KEY_PREFIX),
      created_at: timestampSchema,
      last_used_at: timestampSchema.nullable(),
    }),
  ),
);
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeysResponseSchema = schema(() =>
  named('ApiKeysResponse', z.object({ api_keys: z.array(apiKeySchema) })),
);
export type ApiKeysResponse = z.infer<typeof apiKeysResponseSchema>;

/** POST /v1/me/api-keys: the key, shown this once. */
export const createdApiKeyResponseSchema = schema(() =>
  named(
    'CreatedApiKeyResponse',
    z.object({ message: z.string(), api_key: apiKeySchema, key: z.string().regex(API_KEY_PATTERN) }),
  ),
);
export type CreatedApiKeyResponse = z.infer<typeof createdApiKeyResponseSchema>;

export const createApiKeyRequestSchema = schema(() =>
  z.strictObject({
    name: z
      .string({ error: API_KEY_MESSAGES.name })
      .trim()
      .min(1, API_KEY_MESSAGES.name)
      .max(API_KEY_NAME_MAX, API_KEY_MESSAGES.name)
      .refine((value) => !hasForbiddenCharacters(value), API_KEY_MESSAGES.name),
    scopes: z
      .array(z.enum(API_KEY_SCOPES, { error: API_KEY_MESSAGES.scopes }), { error: API_KEY_MESSAGES.scopes })
      .min(1, API_KEY_MESSAGES.scopes)
      .max(API_KEY_SCOPES.length, API_KEY_MESSAGES.scopes)
      .transform((scopes) => API_KEY_SCOPES.filter((s) => scopes.includes(s))),
  }),
);
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;
