import { IDENTITY_MESSAGES, MAX_PASSKEYS, MFA_MESSAGES, PASSKEY_MESSAGES } from '@seatlink/contracts';
import { type Decider, DomainError } from '../../shared/event-sourcing/decider.js';
import type { EmailClaimEvent, UserEvent, UserRegistered } from './user.events.js';

/** A user as the write side knows it: enough to sign in and to answer with the user, whatever the read models say. */
export interface UserState {
  exists: boolean;
  userId: string | null;
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  isAdmin: boolean;
  emailVerified: boolean;
  banned: boolean;
  registeredAt: string | null;
  lastLoggedInAt: string | null;
  /** When the password last changed: a sign-in link asked for before then no longer works. */
  passwordChangedAt: string | null;
  /** When the user was last told that someone registered with their address. */
  duplicateRegistrationNoticeAt: string | null;
  /** When a sign-in link was last asked for. */
  signInLinkRequestedAt: string | null;
  /** A sign-in asks for a code from the user's authenticator app. */
  totpEnabled: boolean;
  /** The hashes of the recovery codes not used yet. */
  recoveryCodeHashes: readonly string[];
  /** The user's passkeys, oldest first. */
  passkeys: readonly PasskeyOnRecord[];
}

/** A passkey as the user's stream knows it (its signature counter is operational state, kept where it is used). */
export interface PasskeyOnRecord {
  credentialId: string;
  publicKey: string;
  name: string;
  transports: readonly string[];
  addedAt: string;
}

/** A sign-in with the password alone is not enough: an app or a passkey must finish it. */
export const hasSecondFactor = (state: UserState) => state.totpEnabled || state.passkeys.length > 0;

/** A sign-in link is sent at most once per this long: the one already sent still works (15 minutes). */
export const SIGN_IN_LINK_INTERVAL_MS = 60 * 1000;

/** At most one "someone registered with your address" e-mail per this long, however often it is tried. */
export const DUPLICATE_REGISTRATION_NOTICE_INTERVAL_MS = 60 * 60 * 1000;

export type UserCommand =
  | { type: 'RegisterUser'; data: Omit<UserRegistered['data'], 'registeredAt'> & { now: string } }
  | { type: 'RecordLogin'; data: { userId: string; now: string } }
  | { type: 'VerifyEmail'; data: { userId: string; now: string } }
  | { type: 'ChangePassword'; data: { userId: string; passwordHash: string; now: string } }
  | { type: 'ToggleBan'; data: { userId: string; by: string; now: string } }
  | { type: 'RequestVerificationEmail'; data: { userId: string; now: string } }
  | { type: 'RequestPasswordReset'; data: { userId: string; by: string; now: string } }
  | { type: 'RequestSignInLink'; data: { userId: string; now: string } }
  | { type: 'SignInWithLink'; data: { userId: string; linkIssuedAt: string; now: string } }
  | { type: 'ReportDuplicateRegistration'; data: { userId: string; now: string } }
  /** Turn the authenticator app on, its first code checked by the caller (the secret is not the stream's). */
  | { type: 'EnableTotp'; data: { userId: string; recoveryCodeHashes: string[]; now: string } }
  /** Turn it off, a fresh code checked by the caller (or `recoveryCodeHash`, used up here). */
  | { type: 'DisableTotp'; data: { userId: string; recoveryCodeHash: string | null; now: string } }
  /**
   * Finish a sign-in with the second factor: a code of the app the caller checked (`recoveryCodeHash` null), or a
   * recovery code, used up here, once.
   */
  | { type: 'SignInWithSecondFactor'; data: { userId: string; recoveryCodeHash: string | null; now: string } }
  /** Record a sign-in from a device the account had not signed in from (the caller remembers devices). */
  | { type: 'RecordNewDevice'; data: { userId: string; device: string; ip: string; now: string } }
  /** Confirm it is the user (a step-up) with a recovery code: used up here, once. */
  | { type: 'ConfirmWithRecoveryCode'; data: { userId: string; recoveryCodeHash: string; now: string } }
  /**
   * Add a passkey the caller verified (its registration answered the challenge given to this user).
   * `recoveryCodeHashes`: new codes, kept only when the account had no second factor yet.
   */
  | {
      type: 'AddPasskey';
      data: Omit<PasskeyOnRecord, 'addedAt'> & { userId: string; recoveryCodeHashes: string[]; now: string };
    }
  | { type: 'RemovePasskey'; data: { userId: string; credentialId: string; now: string } }
  /** Sign in with a passkey whose signature the caller checked against the key the stream holds. */
  | { type: 'SignInWithPasskey'; data: { userId: string; credentialId: string; now: string } }
  /** Record that the user signed `count` of their sessions out (the caller ended them). */
  | { type: 'RecordSessionsSignedOut'; data: { userId: string; count: number; now: string } };

const linkInvalid = () => new DomainError(IDENTITY_MESSAGES.signInLinkInvalid, 'SIGN_IN_LINK_INVALID', 400);

export const MFA_REFUSALS = {
  alreadyEnabled: () => new DomainError(MFA_MESSAGES.alreadyEnabled, 'MFA_ALREADY_ENABLED', 409),
  notEnabled: () => new DomainError(MFA_MESSAGES.notEnabled, 'MFA_NOT_ENABLED', 409),
  invalid: () => new DomainError(MFA_MESSAGES.invalid, 'MFA_INVALID', 400),
};

export const PASSKEY_REFUSALS = {
  invalid: () => new DomainError(PASSKEY_MESSAGES.invalid, 'PASSKEY_INVALID', 401),
  notFound: () => new DomainError(PASSKEY_MESSAGES.notFound, 'PASSKEY_NOT_FOUND', 404),
  exists: () => new DomainError(PASSKEY_MESSAGES.exists, 'PASSKEY_EXISTS', 409),
  limit: () => new DomainError(PASSKEY_MESSAGES.limit, 'PASSKEY_LIMIT', 409),
};

const banned = () => new DomainError('Your account has been banned', 'ACCOUNT_BANNED', 403);

/** The recovery code used up, or a refusal: a code unknown or used before is a wrong code. */
function useRecoveryCode(state: UserState, userId: string, codeHash: string | null, now: string): UserEvent[] {
  if (codeHash === null) return [];
  if (!state.recoveryCodeHashes.includes(codeHash)) throw MFA_REFUSALS.invalid();
  return [{ type: 'RecoveryCodeUsed', data: { userId, codeHash, at: now } }];
}

const mustExist = (state: UserState) => {
  if (!state.exists) throw new DomainError('User not found', 'USER_NOT_FOUND', 404);
};

export const initialUserState = (): UserState => ({
  exists: false,
  userId: null,
  email: '',
  firstName: '',
  lastName: '',
  passwordHash: '',
  isAdmin: false,
  emailVerified: false,
  banned: false,
  registeredAt: null,
  lastLoggedInAt: null,
  passwordChangedAt: null,
  duplicateRegistrationNoticeAt: null,
  signInLinkRequestedAt: null,
  totpEnabled: false,
  recoveryCodeHashes: [],
  passkeys: [],
});

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: initialUserState,
  evolve: (state, event) => {
    switch (event.type) {
      case 'UserRegistered': {
        const d = event.data;
        return {
          ...state,
          exists: true,
          userId: d.userId,
          email: d.email,
          firstName: d.firstName,
          lastName: d.lastName,
          passwordHash: d.passwordHash,
          isAdmin: d.isAdmin,
          emailVerified: d.emailVerified,
          registeredAt: d.registeredAt,
        };
      }
      case 'EmailVerified':
        return { ...state, emailVerified: true };
      case 'UserBanned':
        return { ...state, banned: true };
      case 'UserUnbanned':
        return { ...state, banned: false };
      case 'UserLoggedIn':
        return { ...state, lastLoggedInAt: event.data.at };
      case 'PasswordChanged':
        return { ...state, passwordHash: event.data.passwordHash, passwordChangedAt: event.data.at };
      case 'DuplicateRegistrationAttempted':
        return { ...state, duplicateRegistrationNoticeAt: event.data.at };
      case 'SignInLinkRequested':
        return { ...state, signInLinkRequestedAt: event.data.at };
      case 'TotpEnabled':
        return { ...state, totpEnabled: true, recoveryCodeHashes: event.data.recoveryCodeHashes };
      case 'TotpDisabled': {
        // The recovery codes stand in for every second factor: they go with the last one.
        const next = { ...state, totpEnabled: false };
        return hasSecondFactor(next) ? next : { ...next, recoveryCodeHashes: [] };
      }
      case 'PasskeyAdded': {
        const { credentialId, publicKey, name, transports, recoveryCodeHashes, at } = event.data;
        return {
          ...state,
          passkeys: [...state.passkeys, { credentialId, publicKey, name, transports, addedAt: at }],
          recoveryCodeHashes: recoveryCodeHashes ?? state.recoveryCodeHashes,
        };
      }
      case 'PasskeyRemoved': {
        const next = {
          ...state,
          passkeys: state.passkeys.filter((p) => p.credentialId !== event.data.credentialId),
        };
        return hasSecondFactor(next) ? next : { ...next, recoveryCodeHashes: [] };
      }
      case 'RecoveryCodeUsed':
        return { ...state, recoveryCodeHashes: state.recoveryCodeHashes.filter((h) => h !== event.data.codeHash) };
      case 'VerificationEmailRequested':
      case 'PasswordResetRequested':
      case 'SessionsSignedOut':
      case 'SignInFromNewDevice':
        return state;
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'RegisterUser': {
        if (state.exists) throw new DomainError('This user already exists', 'USER_EXISTS', 409);
        const { now, ...rest } = command.data;
        return [{ type: 'UserRegistered', data: { ...rest, registeredAt: now } }];
      }
      case 'RecordLogin':
        mustExist(state);
        // A password alone never signs in an account with a second factor (turned on while this sign-in ran).
        if (hasSecondFactor(state)) throw new DomainError(MFA_MESSAGES.required, 'MFA_REQUIRED', 401);
        return [{ type: 'UserLoggedIn', data: { userId: command.data.userId, at: command.data.now } }];
      case 'VerifyEmail':
        mustExist(state);
        if (state.emailVerified) return [];
        return [{ type: 'EmailVerified', data: { userId: command.data.userId, at: command.data.now } }];
      case 'ChangePassword':
        mustExist(state);
        return [
          {
            type: 'PasswordChanged',
            data: {
              userId: command.data.userId,
              passwordHash: command.data.passwordHash,
              at: command.data.now,
              reason: 'reset',
            },
          },
        ];
      case 'ToggleBan': {
        mustExist(state);
        const data = { userId: command.data.userId, by: command.data.by, at: command.data.now };
        return [state.banned ? { type: 'UserUnbanned', data } : { type: 'UserBanned', data }];
      }
      case 'RequestVerificationEmail': {
        // Nothing to send to an unknown, verified or banned user; the caller answers the same either way.
        if (!state.exists || state.emailVerified || state.banned) return [];
        const { userId, now } = command.data;
        return [
          {
            type: 'VerificationEmailRequested',
            data: { userId, email: state.email, firstName: state.firstName, at: now },
          },
        ];
      }
      case 'RequestPasswordReset': {
        if (!state.exists || state.banned) return [];
        const { userId, by, now } = command.data;
        return [
          {
            type: 'PasswordResetRequested',
            data: { userId, email: state.email, firstName: state.firstName, by, at: now },
          },
        ];
      }
      case 'RequestSignInLink': {
        // Only a user who could sign in gets a link; the caller answers the same either way.
        if (!state.exists || state.banned || !state.emailVerified) return [];
        const { userId, now } = command.data;
        const last = state.signInLinkRequestedAt;
        if (last && Date.parse(now) - Date.parse(last) < SIGN_IN_LINK_INTERVAL_MS) return [];
        return [
          { type: 'SignInLinkRequested', data: { userId, email: state.email, firstName: state.firstName, at: now } },
        ];
      }
      case 'SignInWithLink': {
        const { userId, linkIssuedAt, now } = command.data;
        if (!state.exists || !state.emailVerified) throw linkInvalid();
        if (state.banned) throw banned();
        // A new password voids the links asked for with the old one.
        if (state.passwordChangedAt && Date.parse(state.passwordChangedAt) >= Date.parse(linkIssuedAt)) {
          throw linkInvalid();
        }
        // With a second factor the link only stands for the password: the sign-in goes on with the factor.
        if (hasSecondFactor(state)) return [];
        return [{ type: 'UserLoggedIn', data: { userId, at: now, method: 'link' } }];
      }
      case 'EnableTotp': {
        mustExist(state);
        if (state.totpEnabled) throw MFA_REFUSALS.alreadyEnabled();
        const { userId, recoveryCodeHashes, now } = command.data;
        return [{ type: 'TotpEnabled', data: { userId, recoveryCodeHashes, at: now } }];
      }
      case 'DisableTotp': {
        mustExist(state);
        if (!state.totpEnabled) throw MFA_REFUSALS.notEnabled();
        const { userId, recoveryCodeHash, now } = command.data;
        return [
          ...useRecoveryCode(state, userId, recoveryCodeHash, now),
          { type: 'TotpDisabled', data: { userId, at: now } },
        ];
      }
      case 'SignInWithSecondFactor': {
        const { userId, recoveryCodeHash, now } = command.data;
        mustExist(state);
        if (state.banned) throw banned();
        // A code of the app needs the app; a recovery code, any second factor.
        if (recoveryCodeHash === null ? !state.totpEnabled : !hasSecondFactor(state)) throw MFA_REFUSALS.invalid();
        return [
          ...useRecoveryCode(state, userId, recoveryCodeHash, now),
          {
            type: 'UserLoggedIn',
            data: { userId, at: now, method: recoveryCodeHash === null ? 'totp' : 'recovery_code' },
          },
        ];
      }
      case 'RecordNewDevice': {
        mustExist(state);
        const { userId, device, ip, now } = command.data;
        return [{ type: 'SignInFromNewDevice', data: { userId, device, ip, at: now } }];
      }
      case 'ConfirmWithRecoveryCode': {
        mustExist(state);
        if (!hasSecondFactor(state)) throw MFA_REFUSALS.notEnabled();
        const { userId, recoveryCodeHash, now } = command.data;
        return useRecoveryCode(state, userId, recoveryCodeHash, now);
      }
      case 'AddPasskey': {
        mustExist(state);
        const { userId, credentialId, publicKey, name, transports, recoveryCodeHashes, now } = command.data;
        if (state.passkeys.some((p) => p.credentialId === credentialId)) throw PASSKEY_REFUSALS.exists();
        if (state.passkeys.length >= MAX_PASSKEYS) throw PASSKEY_REFUSALS.limit();
        const first = !hasSecondFactor(state);
        return [
          {
            type: 'PasskeyAdded',
            data: {
              userId,
              credentialId,
              publicKey,
              name,
              transports: [...transports],
              ...(first ? { recoveryCodeHashes } : {}),
              at: now,
            },
          },
        ];
      }
      case 'RemovePasskey': {
        mustExist(state);
        const { userId, credentialId, now } = command.data;
        if (!state.passkeys.some((p) => p.credentialId === credentialId)) throw PASSKEY_REFUSALS.notFound();
        return [{ type: 'PasskeyRemoved', data: { userId, credentialId, at: now } }];
      }
      case 'SignInWithPasskey': {
        const { userId, credentialId, now } = command.data;
        // A passkey removed (or an account gone) while its answer was checked signs nobody in.
        if (!state.exists || !state.passkeys.some((p) => p.credentialId === credentialId)) {
          throw PASSKEY_REFUSALS.invalid();
        }
        if (state.banned) throw banned();
        if (!state.emailVerified) {
          throw new DomainError('Please verify your email address before signing in', 'EMAIL_NOT_VERIFIED', 403);
        }
        return [{ type: 'UserLoggedIn', data: { userId, at: now, method: 'passkey' } }];
      }
      case 'RecordSessionsSignedOut': {
        mustExist(state);
        const { userId, count, now } = command.data;
        return count > 0 ? [{ type: 'SessionsSignedOut', data: { userId, count, at: now } }] : [];
      }
      case 'ReportDuplicateRegistration': {
        if (!state.exists || state.banned) return [];
        const { userId, now } = command.data;
        const last = state.duplicateRegistrationNoticeAt;
        if (last && Date.parse(now) - Date.parse(last) < DUPLICATE_REGISTRATION_NOTICE_INTERVAL_MS) return [];
        return [
          {
            type: 'DuplicateRegistrationAttempted',
            data: { userId, email: state.email, firstName: state.firstName, at: now },
          },
        ];
      }
    }
  },
};

export interface EmailClaimState {
  claimedBy: string | null;
}

export type EmailClaimCommand =
  | { type: 'ClaimEmail'; data: { email: string; userId: string } }
  | { type: 'ReleaseEmail'; data: { email: string; userId: string } };

export const emailClaimDecider: Decider<EmailClaimState, EmailClaimCommand, EmailClaimEvent> = {
  initialState: () => ({ claimedBy: null }),
  evolve: (_state, event) => ({ claimedBy: event.type === 'EmailClaimed' ? event.data.userId : null }),
  decide: (command, state) => {
    const { email, userId } = command.data;
    if (command.type === 'ReleaseEmail') {
      return state.claimedBy === userId ? [{ type: 'EmailReleased', data: { email, userId } }] : [];
    }
    if (state.claimedBy !== null && state.claimedBy !== userId) {
      throw new DomainError('An account with this email already exists', 'EMAIL_TAKEN', 409);
    }
    if (state.claimedBy === userId) return [];
    return [{ type: 'EmailClaimed', data: { email, userId } }];
  },
};
