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
    /** `link`: with a one-time link e-mailed to them (a second proof); absent: with the password. */
    method?: 'link';
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

export type UserEvent =
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
