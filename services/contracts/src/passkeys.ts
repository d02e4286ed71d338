import { z } from 'zod';
import { MFA_MESSAGES, recoveryCodesSchema } from './mfa.js';
import { named, schema, timestampSchema } from './schema.js';
import { hasForbiddenCharacters } from './text.js';

/**
 * Passkeys (WebAuthn): a second factor after the password, and a sign-in without one. A signed-in user adds one with
 * POST /v1/me/passkeys/options (the browser's `navigator.credentials.create` options) and POST /v1/me/passkeys (its
 * answer and a name); signs in with POST /v1/auth/passkey/options and POST /v1/auth/passkey — with the `mfa_token` of
 * a sign-in that answered MFA_REQUIRED, as its second factor, or alone, without a password.
 */
export const PASSKEY_MESSAGES = {
  added: 'Passkey added',
  removed: 'Passkey removed',
  invalid: 'That passkey could not be used. Try again.',
  expired: 'That took too long. Try again.',
  notFound: 'Passkey not found',
  exists: 'That passkey is already added',
  limit: 'You can add at most 10 passkeys',
  name: 'Give the passkey a name of at most 60 characters',
  response: 'The browser’s answer is not one a passkey gives',
  required: 'Use your passkey, or enter a code from your authenticator app',
  notUsed: 'Your passkey was not used. Try again.',
  unsupported: 'This browser cannot use passkeys',
  wrongAddress: 'Passkeys do not work at this address: open Seatlink at its own address',
} as const;

/** Passkeys one account may hold. */
export const MAX_PASSKEYS = 10;
export const PASSKEY_NAME_MAX = 60;

/** How a sign-in that answered MFA_REQUIRED can be finished. */
export type SecondFactorMethod = 'totp' | 'passkey' | 'recovery_code';

/** GET /v1/me/passkeys. */
export const passkeySchema = schema(() =>
  named(
    'Passkey',
    z.object({
      /** Its credential id (base64url), as WebAuthn names it. */
      id: z.string().regex(/^[A-Za-z0-9_-]+$/),
      name: z.string(),
      created_at: timestampSchema,
      /** The last sign-in or confirmation made with it (null: never used since it was added). */
      last_used_at: timestampSchema.nullable(),
    }),
  ),
);
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeysResponseSchema = schema(() =>
  named('PasskeysResponse', z.object({ passkeys: z.array(passkeySchema) })),
);
export type PasskeysResponse = z.infer<typeof passkeysResponseSchema>;

/** POST /v1/me/passkeys: the passkey added; the recovery codes, shown this once, when it is the first second factor. */
export const passkeyAddedResponseSchema = schema(() =>
  named(
    'PasskeyAddedResponse',
    z.object({ message: z.string(), passkey: passkeySchema, recovery_codes: recoveryCodesSchema.optional() }),
  ),
);
export type PasskeyAddedResponse = z.infer<typeof passkeyAddedResponseSchema>;

/** The ways to reach an authenticator WebAuthn names (AuthenticatorTransport); a passkey keeps only these. */
export const PASSKEY_TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;

/** Binary data of the WebAuthn options, as their JSON form carries it. */
const base64urlText = () => z.string().regex(/^[A-Za-z0-9_-]*$/);

/** A passkey the options name (PublicKeyCredentialDescriptorJSON): one to use, or one the device must not make again. */
export const passkeyCredentialDescriptorSchema = schema(() =>
  named(
    'PasskeyCredentialDescriptor',
    z.object({
      id: base64urlText(),
      type: z.literal('public-key'),
      transports: z.array(z.enum(PASSKEY_TRANSPORTS)).optional(),
    }),
  ),
);

const userVerification = () => z.enum(['required', 'preferred', 'discouraged']);

/**
 * POST /v1/me/passkeys/options: the options for the browser's `navigator.credentials.create`
 * (PublicKeyCredentialCreationOptionsJSON, WebAuthn Level 3), as @simplewebauthn/server makes them: a passkey kept on
 * the device (discoverable) for this user, none of those already added made again.
 */
export const passkeyRegistrationOptionsSchema = schema(() =>
  named(
    'PasskeyRegistrationOptions',
    z.object({
      /** The relying party: this site (its id is the dashboard's host name). */
      rp: z.object({ name: z.string(), id: z.string() }),
      /** The user the passkey is for: `id` is their user handle (base64url). */
      user: z.object({ id: base64urlText(), name: z.string(), displayName: z.string() }),
      challenge: base64urlText(),
      /** The signature algorithms accepted (COSE identifiers), most preferred first. */
      pubKeyCredParams: z.array(z.object({ alg: z.int(), type: z.literal('public-key') })),
      /** Milliseconds the browser may take. */
      timeout: z.int().min(1),
      /** The user's passkeys already added: the device does not make a second one. */
      excludeCredentials: z.array(passkeyCredentialDescriptorSchema),
      authenticatorSelection: z.object({
        authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
        residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: userVerification().optional(),
      }),
      attestation: z.enum(['none', 'indirect', 'direct', 'enterprise']),
      /** Asks the browser whether the passkey it made is discoverable (`credProps`). */
      extensions: z.object({ credProps: z.boolean() }),
      hints: z.array(z.enum(['security-key', 'client-device', 'hybrid'])),
    }),
  ),
);
export type PasskeyRegistrationOptions = z.infer<typeof passkeyRegistrationOptionsSchema>;

/**
 * POST /v1/auth/passkey/options and POST /v1/me/step-up/passkey/options: the options for the browser's
 * `navigator.credentials.get` (PublicKeyCredentialRequestOptionsJSON), as @simplewebauthn/server makes them. A sign-in
 * without a password names no passkey (the device offers any of this site's); a second factor or a step-up names the
 * user's.
 */
export const passkeyAuthenticationOptionsSchema = schema(() =>
  named(
    'PasskeyAuthenticationOptions',
    z.object({
      /** The relying party's id: the dashboard's host name. */
      rpId: z.string(),
      challenge: base64urlText(),
      allowCredentials: z.array(passkeyCredentialDescriptorSchema),
      /** Milliseconds the browser may take. */
      timeout: z.int().min(1),
      userVerification: userVerification(),
    }),
  ),
);
export type PasskeyAuthenticationOptions = z.infer<typeof passkeyAuthenticationOptionsSchema>;

/** Base64url, as WebAuthn's JSON forms carry binary data. */
const base64url = (max: number) =>
  z
    .string({ error: PASSKEY_MESSAGES.response })
    .max(max, PASSKEY_MESSAGES.response)
    .regex(/^[A-Za-z0-9_-]*$/, PASSKEY_MESSAGES.response);

const credentialId = () => base64url(1400).min(16, PASSKEY_MESSAGES.response);

/**
 * The parts of a credential's JSON form both ceremonies share (unknown extension results are dropped). Made only
 * inside `schema()`: a bundle that parses nothing (the dashboard) carries no zod for them.
 */
const credentialBase = () => ({
  id: credentialId(),
  rawId: credentialId(),
  type: z.literal('public-key', { error: PASSKEY_MESSAGES.response }),
  clientExtensionResults: z
    .object({ credProps: z.object({ rk: z.boolean().optional() }).optional() }, { error: PASSKEY_MESSAGES.response })
    .default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

/** RegistrationResponseJSON (WebAuthn Level 3), bounded. */
export const registrationResponseSchema = schema(() =>
  z.object(
    {
      ...credentialBase(),
      response: z.object(
        {
          clientDataJSON: base64url(4096).min(1, PASSKEY_MESSAGES.response),
          attestationObject: base64url(32_768).min(1, PASSKEY_MESSAGES.response),
          authenticatorData: base64url(8192).optional(),
          // Browsers name new ways over time: any short name is taken, and only the known ones kept.
          transports: z
            .array(
              z
                .string()
                .max(20)
                .regex(/^[a-z-]+$/, PASSKEY_MESSAGES.response),
            )
            .max(10)
            .optional(),
          publicKeyAlgorithm: z.number().int().optional(),
          publicKey: base64url(8192).optional(),
        },
        { error: PASSKEY_MESSAGES.response },
      ),
    },
    { error: PASSKEY_MESSAGES.response },
  ),
);

/** AuthenticationResponseJSON (WebAuthn Level 3), bounded. */
export const authenticationResponseSchema = schema(() =>
  z.object(
    {
      ...credentialBase(),
      response: z.object(
        {
          clientDataJSON: base64url(4096).min(1, PASSKEY_MESSAGES.response),
          authenticatorData: base64url(8192).min(37, PASSKEY_MESSAGES.response),
          signature: base64url(1024).min(1, PASSKEY_MESSAGES.response),
          userHandle: base64url(128).optional(),
        },
        { error: PASSKEY_MESSAGES.response },
      ),
    },
    { error: PASSKEY_MESSAGES.response },
  ),
);

const passkeyName = schema(() =>
  z
    .string({ error: PASSKEY_MESSAGES.name })
    .trim()
    .min(1, PASSKEY_MESSAGES.name)
    .max(PASSKEY_NAME_MAX, PASSKEY_MESSAGES.name)
    .refine((value) => !hasForbiddenCharacters(value), PASSKEY_MESSAGES.name),
);

export const addPasskeyRequestSchema = schema(() =>
  z.strictObject({ name: passkeyName, response: registrationResponseSchema }),
);
export type AddPasskeyRequest = z.input<typeof addPasskeyRequestSchema>;

const mfaToken = () => z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, MFA_MESSAGES.tokenInvalid);

/** POST /v1/me/step-up/passkey: the browser's answer to POST /v1/me/step-up/passkey/options. */
export const passkeyStepUpRequestSchema = schema(() => z.strictObject({ response: authenticationResponseSchema }));
export type PasskeyStepUpRequest = z.input<typeof passkeyStepUpRequestSchema>;

/** POST /v1/auth/passkey/options: with the `mfa_token` of a sign-in waiting for its second factor, or without. */
export const passkeyOptionsRequestSchema = schema(() => z.strictObject({ mfa_token: mfaToken().optional() }));
export type PasskeyOptionsRequest = z.input<typeof passkeyOptionsRequestSchema>;

/** POST /v1/auth/passkey: the browser's answer to those options (then as POST /v1/auth answers). */
export const passkeySignInRequestSchema = schema(() =>
  z.strictObject({ response: authenticationResponseSchema, mfa_token: mfaToken().optional() }),
);
export type PasskeySignInRequest = z.input<typeof passkeySignInRequestSchema>;
