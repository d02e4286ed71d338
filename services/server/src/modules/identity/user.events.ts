import type { DomainEvent } from '../../shared/event-sourcing/decider.js';

export type UserRegistered = DomainEvent<
  'UserRegistered',
  {
    userId: string;
    email: string;
    firstName: string;
    lastName: string;
    passwordHash: string;
    isAdmin: boolean;
    emailVerified: boolean;
    registeredAt: string;
    /** The invite code the user registered with (none for seeded users). */
    inviteCode?: string;
  }
>;
export type UserLoggedIn = DomainEvent<
  'UserLoggedIn',
  {
    userId: string;
    at: string;
    /**
     * `link`: with a one-time link e-mailed to them (a second proof); `totp` or `recovery_code`: with the password and
     * then a code from their authenticator app or one of their recovery codes; `passkey`: with a passkey (after the
     * password, or alone); absent: with the password.
     */
    method?: 'link' | 'totp' | 'recovery_code' | 'passkey';
  }
>;
export type EmailVerified = DomainEvent<'EmailVerified', { userId: string; at: string }>;
export type PasswordChanged = DomainEvent<
  'PasswordChanged',
  { userId: string; passwordHash: string; at: string; reason: 'reset' }
>;
export type UserBanned = DomainEvent<'UserBanned', { userId: string; by: string; at: string }>;
export type UserUnbanned = DomainEvent<'UserUnbanned', { userId: string; by: string; at: string }>;

/** A new verification link was asked for; a reaction e-mails it. */
export type VerificationEmailRequested = DomainEvent<
  'VerificationEmailRequested',
  { userId: string; email: string; firstName: string; at: string }
>;
/** A password reset link was asked for (by the user, or by an admin: `by`); a reaction e-mails it. */
export type PasswordResetRequested = DomainEvent<
  'PasswordResetRequested',
  { userId: string; email: string; firstName: string; by: string; at: string }
>;

/**
 * The right password arrived for an account past its count of failed sign-ins from anywhere: the user must prove it is
 * them with a one-time link; a reaction e-mails it.
 */
export type SignInLinkRequested = DomainEvent<
  'SignInLinkRequested',
  { userId: string; email: string; firstName: string; at: string }
>;
/**
 * Someone registered with the user's address (it is taken, so nothing was created); a reaction tells the user, with a
 * way to sign in or reset the password. The visitor was answered as for a new address.
 */
export type DuplicateRegistrationAttempted = DomainEvent<
  'DuplicateRegistrationAttempted',
  { userId: string; email: string; firstName: string; at: string }
>;

/**
 * The user turned on an authenticator app (TOTP) as a second factor: from now a sign-in asks for its code.
 * `recoveryCodeHashes`: the SHA-256 of each recovery code (shown to them once), each good for one use. The app's secret
 * is not here: it is kept where codes are checked (`user_totp`), and leaves with TotpDisabled.
 */
export type TotpEnabled = DomainEvent<'TotpEnabled', { userId: string; recoveryCodeHashes: string[]; at: string }>;
/** The user turned the authenticator app off (with a fresh code): a sign-in needs the password alone again. */
export type TotpDisabled = DomainEvent<'TotpDisabled', { userId: string; at: string }>;
/** A recovery code was used (to sign in or to turn the app off): it never works again. */
export type RecoveryCodeUsed = DomainEvent<'RecoveryCodeUsed', { userId: string; codeHash: string; at: string }>;

/**
 * The user added a passkey (a WebAuthn credential): from now a sign-in with the password asks for a second factor, and
 * the passkey alone signs in. `publicKey`: its COSE public key, base64url (public by nature: it only checks
 * signatures). `recoveryCodeHashes`: given when it is the account's first second factor, as with TotpEnabled.
 */
export type PasskeyAdded = DomainEvent<
  'PasskeyAdded',
  {
    userId: string;
    credentialId: string;
    publicKey: string;
    name: string;
    transports: string[];
    recoveryCodeHashes?: string[];
    at: string;
  }
>;
/** The user removed a passkey: it signs in no more. */
export type PasskeyRemoved = DomainEvent<'PasskeyRemoved', { userId: string; credentialId: string; at: string }>;

/** The user signed in from a device (browser, system, model) their account had not signed in from before. */
export type SignInFromNewDevice = DomainEvent<
  'SignInFromNewDevice',
  { userId: string; device: string; ip: string; at: string }
>;

/** The user signed some of their sessions out (one, or every other) from another of them. */
export type SessionsSignedOut = DomainEvent<'SessionsSignedOut', { userId: string; count: number; at: string }>;

export type UserEvent =
  | PasskeyAdded
  | PasskeyRemoved
  | SignInFromNewDevice
  | SessionsSignedOut
  | TotpEnabled
  | TotpDisabled
  | RecoveryCodeUsed
  | UserRegistered
  | UserLoggedIn
  | EmailVerified
  | PasswordChanged
  | UserBanned
  | UserUnbanned
  | VerificationEmailRequested
  | PasswordResetRequested
  | SignInLinkRequested
  | DuplicateRegistrationAttempted;

/** The claim on an e-mail address: one stream per address, so two registrations cannot both take it. */
export type EmailClaimed = DomainEvent<'EmailClaimed', { email: string; userId: string }>;
/** A claim given back because the registration that made it could not finish. */
export type EmailReleased = DomainEvent<'EmailReleased', { email: string; userId: string }>;
export type EmailClaimEvent = EmailClaimed | EmailReleased;

export const userStream = (userId: string) => `user-${userId}`;
export const emailClaimStream = (email: string) => `user-email-${email.toLowerCase()}`;
