import { z } from 'zod';
import type { SecondFactorMethod } from './passkeys.js';
import { named, schema } from './schema.js';

/**
 * A second factor: an authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30 s) and recovery codes. Enrol with
 * POST /v1/me/mfa/totp (a secret and its otpauth:// URI for the QR code) and POST /v1/me/mfa/totp/confirm (a first
 * code: answers the recovery codes, once); a sign-in of an enrolled user answers 401 MFA_REQUIRED with an `mfa_token`,
 * and POST /v1/auth/mfa with it and a code (or a recovery code) completes it.
 */
export const MFA_MESSAGES = {
  required: 'Enter the code from your authenticator app',
  invalid: 'That code is not right',
  tokenInvalid: 'Your sign-in took too long or was already used. Sign in again.',
  enrolmentRequired: 'Set up two-factor authentication (Settings) before using the admin pages',
  stepUpCode: 'Confirm it is you: enter a code from your authenticator app, or a recovery code',
  stepUpPassword: 'Confirm it is you: enter your password',
  stepUpPasskey: 'Confirm it is you: use your passkey, or enter a recovery code',
  stepUpBody: 'Give the code from your authenticator app, or your password if you have no app set up',
  passwordInvalid: 'That password is not right',
  confirmed: 'Confirmed',
  codeFormat: 'Enter the 6-digit code from your authenticator app, or a recovery code',
  totpFormat: 'Enter the 6-digit code from your authenticator app',
  alreadyEnabled: 'Two-factor authentication is already on',
  notEnabled: 'Two-factor authentication is not on',
  noEnrolment: 'Start again: no authenticator app is being set up',
  enabled: 'Two-factor authentication is on',
  disabled: 'Two-factor authentication is off',
} as const;

/** Recovery codes made at enrolment: each works once. */
export const RECOVERY_CODE_COUNT = 10;
/** How long a sign-in may wait for its second factor (the mfa_token's life). */
export const MFA_TOKEN_TTL_MS = 5 * 60 * 1000;

/** A code as people type it: spaces and dashes are not part of it, and case does not matter. */
const normalised = (value: string) => value.replace(/[\s-]/g, '').toUpperCase();
export const TOTP_CODE_PATTERN = /^\d{6}$/;
/** Ten characters of the base32 alphabet, shown as two groups of five ("ABCDE-FGH23"). */
export const RECOVERY_CODE_PATTERN = /^[A-Z2-7]{10}$/;

/** A second-factor code: 6 digits from the app, or a recovery code; normalised. */
export const mfaCodeSchema = schema(() =>
  z
    .string({ error: MFA_MESSAGES.codeFormat })
    .max(40, MFA_MESSAGES.codeFormat)
    .transform(normalised)
    .refine((v) => TOTP_CODE_PATTERN.test(v) || RECOVERY_CODE_PATTERN.test(v), MFA_MESSAGES.codeFormat),
);

const totpCode = schema(() =>
  z
    .string({ error: MFA_MESSAGES.totpFormat })
    .max(40, MFA_MESSAGES.totpFormat)
    .transform(normalised)
    .refine((v) => TOTP_CODE_PATTERN.test(v), MFA_MESSAGES.totpFormat),
);

/** GET /v1/me/mfa. */
export const mfaStatusSchema = schema(() =>
  named(
    'MfaStatus',
    z.object({
      totp: z.boolean(),
      /** The user's role needs a second factor (an admin, where the server requires one) before its pages work. */
      required: z.boolean(),
      /** Passkeys added (each is a second factor, and signs in without a password). */
      passkeys: z.int().min(0),
      /** Recovery codes not used yet (0 without a second factor). */
      recovery_codes_left: z.int().min(0),
    }),
  ),
);
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

/** POST /v1/me/mfa/totp: the secret to add to the app (or scan as `otpauth_url`'s QR code). */
export const totpEnrolmentResponseSchema = schema(() =>
  named(
    'TotpEnrolmentResponse',
    z.object({
      /** Base32, as an app takes it typed in. */
      secret: z.string(),
      otpauth_url: z.string().startsWith('otpauth://totp/'),
    }),
  ),
);
export type TotpEnrolmentResponse = z.infer<typeof totpEnrolmentResponseSchema>;

export const totpConfirmRequestSchema = schema(() => z.strictObject({ code: totpCode }));
export type TotpConfirmRequest = z.input<typeof totpConfirmRequestSchema>;

/** Recovery codes as they are shown, once: two groups of five ("ABCDE-FGH23"). */
export const recoveryCodesSchema = schema(() =>
  z.array(z.string().regex(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/)).length(RECOVERY_CODE_COUNT),
);

/** POST /v1/me/mfa/totp/confirm: the recovery codes, shown this once. */
export const totpConfirmResponseSchema = schema(() =>
  named('TotpConfirmResponse', z.object({ message: z.string(), recovery_codes: recoveryCodesSchema })),
);
export type TotpConfirmResponse = z.infer<typeof totpConfirmResponseSchema>;

/** POST /v1/me/mfa/totp/disable: a fresh code (from the app, or a recovery code). */
export const totpDisableRequestSchema = schema(() => z.strictObject({ code: mfaCodeSchema }));
export type TotpDisableRequest = z.input<typeof totpDisableRequestSchema>;

/** The body of the 401 a sign-in answers when it needs the second factor. */
export interface MfaRequiredResponse {
  message: string;
  code: 'MFA_REQUIRED';
  mfa_token: string;
  /** How it can be finished: a code of the app, a passkey, a recovery code. */
  methods: SecondFactorMethod[];
}

/** POST /v1/auth/mfa: completes a sign-in that answered MFA_REQUIRED (then as POST /v1/auth answers). */
export const mfaSignInRequestSchema = schema(() =>
  z.strictObject({
    mfa_token: z
      .string({ error: MFA_MESSAGES.tokenInvalid })
      .regex(/^[A-Za-z0-9_-]{20,100}$/, MFA_MESSAGES.tokenInvalid),
    code: mfaCodeSchema,
  }),
);
export type MfaSignInRequest = z.input<typeof mfaSignInRequestSchema>;

/*
 * Setting credits, banning, resetting someone's password and creating invites need the admin to have signed in, or
 * confirmed it is them, within STEP_UP_MINUTES (10 by default); past it they answer 403 STEP_UP_REQUIRED (with the
 * `method` to confirm by) and POST /v1/me/step-up confirms.
 */

/**
 * How a step-up is confirmed: a code of the app (or a recovery code) when the user has one; else their passkey (or a
 * recovery code) when they have one; else the password.
 */
export type StepUpMethod = 'totp' | 'passkey' | 'password';

/** The body of the 403 a call answers when it needs a fresh confirmation. */
export interface StepUpRequiredResponse {
  message: string;
  code: 'STEP_UP_REQUIRED';
  method: StepUpMethod;
  /** The user has a passkey, which confirms too (POST /v1/me/step-up/passkey). */
  passkey: boolean;
}

/** POST /v1/me/step-up: the code (with an app), or the password (without one). */
export const stepUpRequestSchema = schema(() =>
  z.union(
    [
      z.strictObject({ code: mfaCodeSchema }),
      z.strictObject({ password: z.string({ error: MFA_MESSAGES.stepUpBody }).min(1).max(200) }),
    ],
    { error: MFA_MESSAGES.stepUpBody },
  ),
);
export type StepUpRequest = z.input<typeof stepUpRequestSchema>;
