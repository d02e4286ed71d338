import type { MailMessage } from '../../infra/mail/mail.port.js';
import { simpleMessage } from '../../infra/mail/simple-message.js';

const message = simpleMessage;

export function verificationEmail(to: string, firstName: string, dashboardUrl: string, token: string): MailMessage {
  const link = `${dashboardUrl.replace(/\/$/, '')}/verify-email?token=${encodeURIComponent(token)}`;
  return message(
    to,
    'Verify your email address',
    `Hello ${firstName},`,
    [
      'Welcome to Seatlink. Please confirm your email address to activate your account.',
      'This link works for 24 hours.',
    ],
    'Verify email address',
    link,
  );
}

export function passwordResetEmail(to: string, firstName: string, dashboardUrl: string, token: string): MailMessage {
  const link = `${dashboardUrl.replace(/\/$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
  return message(
    to,
    'Reset your password',
    `Hello ${firstName},`,
    [
      'We received a request to reset the password of your Seatlink account.',
      'This link works for 1 hour. If you did not ask for it, you can ignore this email.',
    ],
    'Reset password',
    link,
  );
}

export function signInLinkEmail(to: string, firstName: string, dashboardUrl: string, token: string): MailMessage {
  const link = `${dashboardUrl.replace(/\/$/, '')}/sign-in-link?token=${encodeURIComponent(token)}`;
  return message(
    to,
    'Your sign-in link',
    `Hello ${firstName},`,
    [
      'Someone signed in to your Seatlink account with the right password, after many failed attempts on it. To keep your account safe, that sign-in needs this link too.',
      'This link works once, for 15 minutes. If it was not you, someone knows your password: reset it with "Forgot your password" on the sign-in page.',
    ],
    'Sign in to Seatlink',
    link,
  );
}

export function duplicateRegistrationEmail(to: string, firstName: string, dashboardUrl: string): MailMessage {
  const link = `${dashboardUrl.replace(/\/$/, '')}/login`;
  return message(
    to,
    'Someone tried to register with your email address',
    `Hello ${firstName},`,
    [
      'Someone tried to create a Seatlink account with this email address. You already have an account, so nothing was changed.',
      'If it was you, sign in instead. If you have forgotten your password, choose "Forgot your password" on the sign-in page to reset it. If it was not you, you can ignore this email.',
    ],
    'Sign in to Seatlink',
    link,
  );
}

/** What changed in the security of an account, as its e-mail says it. */
export const SECURITY_CHANGES = {
  TotpEnabled: 'Two-factor authentication was turned on for your Seatlink account.',
  TotpDisabled: 'Two-factor authentication was turned off for your Seatlink account.',
  PasskeyAdded: 'A passkey was added to your Seatlink account. It signs in without a password.',
  PasskeyRemoved: 'A passkey was removed from your Seatlink account.',
  RecoveryCodeUsed: 'One of your recovery codes was used to get into your Seatlink account. It will not work again.',
  PasswordChanged: 'The password of your Seatlink account was changed.',
  SessionsSignedOut: 'Some sessions of your Seatlink account were signed out from another of them.',
  SignInFromNewDevice: 'Your Seatlink account was signed in to from a device it had not been used on before.',
} as const;
export type SecurityChange = keyof typeof SECURITY_CHANGES;

/** A word to the owner of an account whose security changed: if it was not them, what to do. */
export function securityChangeEmail(
  to: string,
  firstName: string,
  dashboardUrl: string,
  change: SecurityChange,
  detail?: string,
): MailMessage {
  const link = `${dashboardUrl.replace(/\/$/, '')}/dashboard/settings`;
  return message(
    to,
    change === 'SignInFromNewDevice'
      ? 'New sign-in to your Seatlink account'
      : 'A security change on your Seatlink account',
    `Hello ${firstName},`,
    [
      SECURITY_CHANGES[change],
      ...(detail ? [detail] : []),
      'If it was you, there is nothing to do. If it was not, reset your password with "Forgot your password" on the sign-in page, and sign out the sessions you do not recognise on Settings.',
    ],
    'Review your settings',
    link,
  );
}
