import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { emailClaimDecider, userDecider } from './user.decider.js';
import type { UserEvent, UserRegistered } from './user.events.js';

const registered: UserRegistered = {
  type: 'UserRegistered',
  data: {
    userId: 'u1',
    email: 'ann@example.com',
    firstName: 'Ann',
    lastName: 'Lee',
    passwordHash: 'h',
    isAdmin: false,
    emailVerified: true,
    registeredAt: '2026-01-01T00:00:00.000Z',
  },
};

describe('user decider', () => {
  const spec = deciderSpec(userDecider);
  const { registeredAt, ...registration } = registered.data;

  it('registers a new user', () => {
    spec
      .given([])
      .when({ type: 'RegisterUser', data: { ...registration, now: registeredAt } })
      .then([registered]);
  });

  it('refuses to register the same user twice', () => {
    spec
      .given([registered])
      .when({ type: 'RegisterUser', data: { ...registration, now: registeredAt } })
      .thenThrows({ code: 'USER_EXISTS' });
  });

  it('records a login of an existing user, at the time the command carries', () => {
    spec
      .given([registered])
      .when({ type: 'RecordLogin', data: { userId: 'u1', now: '2026-02-02T10:00:00.000Z' } })
      .then([{ type: 'UserLoggedIn', data: { userId: 'u1', at: '2026-02-02T10:00:00.000Z' } }]);
  });

  it('refuses a login of a user that does not exist', () => {
    spec
      .given([])
      .when({ type: 'RecordLogin', data: { userId: 'u1', now: registeredAt } })
      .thenThrows({ code: 'USER_NOT_FOUND' });
  });
});

describe('email claim decider', () => {
  const spec = deciderSpec(emailClaimDecider);
  const claim = { type: 'ClaimEmail' as const, data: { email: 'ann@example.com', userId: 'u1' } };

  it('claims a free address', () => {
    spec
      .given([])
      .when(claim)
      .then([{ type: 'EmailClaimed', data: { email: 'ann@example.com', userId: 'u1' } }]);
  });

  it('refuses an address another user holds', () => {
    spec
      .given([{ type: 'EmailClaimed', data: { email: 'ann@example.com', userId: 'u2' } }])
      .when(claim)
      .thenThrows({ code: 'EMAIL_TAKEN', message: 'An account with this email already exists' });
  });

  it('is a no-op for the holder claiming again', () => {
    spec
      .given([{ type: 'EmailClaimed', data: { email: 'ann@example.com', userId: 'u1' } }])
      .when(claim)
      .then([]);
  });
});

describe('user decider: verification, password, ban', () => {
  const spec = deciderSpec(userDecider);
  const at = '2026-04-01T09:00:00.000Z';
  const unverified: UserRegistered = { ...registered, data: { ...registered.data, emailVerified: false } };

  it('verifies an unverified e-mail once; verifying again appends nothing', () => {
    spec
      .given([unverified])
      .when({ type: 'VerifyEmail', data: { userId: 'u1', now: at } })
      .then([{ type: 'EmailVerified', data: { userId: 'u1', at } }]);
    spec
      .given([unverified, { type: 'EmailVerified', data: { userId: 'u1', at } }])
      .when({ type: 'VerifyEmail', data: { userId: 'u1', now: at } })
      .then([]);
  });

  it('changes the password of an existing user', () => {
    spec
      .given([registered])
      .when({ type: 'ChangePassword', data: { userId: 'u1', passwordHash: 'h2', now: at } })
      .then([{ type: 'PasswordChanged', data: { userId: 'u1', passwordHash: 'h2', at, reason: 'reset' } }]);
  });

  it('toggles the ban: banned, then unbanned', () => {
    const banned = { type: 'UserBanned' as const, data: { userId: 'u1', by: 'a1', at } };
    spec
      .given([registered])
      .when({ type: 'ToggleBan', data: { userId: 'u1', by: 'a1', now: at } })
      .then([banned]);
    spec
      .given([registered, banned])
      .when({ type: 'ToggleBan', data: { userId: 'u1', by: 'a1', now: at } })
      .then([{ type: 'UserUnbanned', data: { userId: 'u1', by: 'a1', at } }]);
  });

  it('refuses to ban a user that does not exist', () => {
    spec
      .given([])
      .when({ type: 'ToggleBan', data: { userId: 'u1', by: 'a1', now: at } })
      .thenThrows({ code: 'USER_NOT_FOUND' });
  });
});

describe('email claim decider: release', () => {
  const spec = deciderSpec(emailClaimDecider);
  const claimed = { type: 'EmailClaimed' as const, data: { email: 'ann@example.com', userId: 'u1' } };

  it('releases a claim its holder gives back, so another user may claim the address', () => {
    spec
      .given([claimed])
      .when({ type: 'ReleaseEmail', data: { email: 'ann@example.com', userId: 'u1' } })
      .then([{ type: 'EmailReleased', data: { email: 'ann@example.com', userId: 'u1' } }]);
    spec
      .given([claimed, { type: 'EmailReleased', data: { email: 'ann@example.com', userId: 'u1' } }])
      .when({ type: 'ClaimEmail', data: { email: 'ann@example.com', userId: 'u2' } })
      .then([{ type: 'EmailClaimed', data: { email: 'ann@example.com', userId: 'u2' } }]);
  });

  it('ignores a release by someone who does not hold the claim', () => {
    spec
      .given([claimed])
      .when({ type: 'ReleaseEmail', data: { email: 'ann@example.com', userId: 'u2' } })
      .then([]);
  });
});

describe('user decider: a sign-in link, when a sign-in needs a second proof', () => {
  const spec = deciderSpec(userDecider);
  const at = '2026-05-01T12:00:00.000Z';
  const later = (ms: number) => new Date(Date.parse(at) + ms).toISOString();
  const requested = {
    type: 'SignInLinkRequested' as const,
    data: { userId: 'u1', email: 'ann@example.com', firstName: 'Ann', at },
  };
  const banned = { type: 'UserBanned' as const, data: { userId: 'u1', by: 'a1', at } };
  const unverified: UserRegistered = { ...registered, data: { ...registered.data, emailVerified: false } };

  it('asks for a link for a verified user who may sign in', () => {
    spec
      .given([registered])
      .when({ type: 'RequestSignInLink', data: { userId: 'u1', now: at } })
      .then([requested]);
  });

  it('sends nothing for an unknown, banned or unverified user (the caller answers the same)', () => {
    for (const history of [[], [registered, banned], [unverified]]) {
      spec
        .given(history)
        .when({ type: 'RequestSignInLink', data: { userId: 'u1', now: at } })
        .then([]);
    }
  });

  it('sends at most one link a minute: the one sent still works', () => {
    spec
      .given([registered, requested])
      .when({ type: 'RequestSignInLink', data: { userId: 'u1', now: later(59_000) } })
      .then([]);
    spec
      .given([registered, requested])
      .when({ type: 'RequestSignInLink', data: { userId: 'u1', now: later(60_000) } })
      .then([{ ...requested, data: { ...requested.data, at: later(60_000) } }]);
  });

  it('signs in with a link: a login by link', () => {
    spec
      .given([registered, requested])
      .when({ type: 'SignInWithLink', data: { userId: 'u1', linkIssuedAt: later(1_000), now: later(60_000) } })
      .then([{ type: 'UserLoggedIn', data: { userId: 'u1', at: later(60_000), method: 'link' } }]);
  });

  it('refuses a link of a banned user as sign-in does', () => {
    spec
      .given([registered, requested, banned])
      .when({ type: 'SignInWithLink', data: { userId: 'u1', linkIssuedAt: at, now: later(1_000) } })
      .thenThrows({ code: 'ACCOUNT_BANNED' });
  });

  it('refuses a link sent before the password changed, and one of an unknown user', () => {
    const changed = {
      type: 'PasswordChanged' as const,
      data: { userId: 'u1', passwordHash: 'h2', at: later(5_000), reason: 'reset' as const },
    };
    spec
      .given([registered, requested, changed])
      .when({ type: 'SignInWithLink', data: { userId: 'u1', linkIssuedAt: later(1_000), now: later(10_000) } })
      .thenThrows({ code: 'SIGN_IN_LINK_INVALID', message: 'This sign-in link is invalid or has expired.' });
    // A link sent after the change works.
    spec
      .given([registered, changed])
      .when({ type: 'SignInWithLink', data: { userId: 'u1', linkIssuedAt: later(6_000), now: later(10_000) } })
      .then([{ type: 'UserLoggedIn', data: { userId: 'u1', at: later(10_000), method: 'link' } }]);
    spec
      .given([])
      .when({ type: 'SignInWithLink', data: { userId: 'u1', linkIssuedAt: at, now: at } })
      .thenThrows({ code: 'SIGN_IN_LINK_INVALID' });
  });
});

describe('user decider: someone registered with the address', () => {
  const spec = deciderSpec(userDecider);
  const at = '2026-05-01T12:00:00.000Z';
  const later = (ms: number) => new Date(Date.parse(at) + ms).toISOString();
  const noticed = {
    type: 'DuplicateRegistrationAttempted' as const,
    data: { userId: 'u1', email: 'ann@example.com', firstName: 'Ann', at },
  };

  it('tells the holder, and changes nothing else of the user', () => {
    spec
      .given([registered])
      .when({ type: 'ReportDuplicateRegistration', data: { userId: 'u1', now: at } })
      .then([noticed]);
    const state = [registered, noticed].reduce(userDecider.evolve, userDecider.initialState());
    const before = [registered].reduce(userDecider.evolve, userDecider.initialState());
    expect({ ...state, duplicateRegistrationNoticeAt: null }).toEqual(before);
  });

  it('tells them at most once an hour, however often it is tried', () => {
    spec
      .given([registered, noticed])
      .when({ type: 'ReportDuplicateRegistration', data: { userId: 'u1', now: later(59 * 60_000) } })
      .then([]);
    spec
      .given([registered, noticed])
      .when({ type: 'ReportDuplicateRegistration', data: { userId: 'u1', now: later(60 * 60_000) } })
      .then([{ ...noticed, data: { ...noticed.data, at: later(60 * 60_000) } }]);
  });

  it('tells nobody when the holder is not registered (yet) or is banned', () => {
    spec
      .given([])
      .when({ type: 'ReportDuplicateRegistration', data: { userId: 'u1', now: at } })
      .then([]);
    spec
      .given([registered, { type: 'UserBanned', data: { userId: 'u1', by: 'a1', at } }])
      .when({ type: 'ReportDuplicateRegistration', data: { userId: 'u1', now: at } })
      .then([]);
  });
});

/** The user stream's second factor: an authenticator app turned on and off, and recovery codes used once. */
describe('user decider: a second factor', () => {
  const spec = deciderSpec(userDecider);
  const now = '2026-11-27T09:00:00.000Z';
  const enabled: UserEvent = { type: 'TotpEnabled', data: { userId: 'u1', recoveryCodeHashes: ['r1', 'r2'], at: now } };
  const used = (codeHash: string): UserEvent => ({
    type: 'RecoveryCodeUsed',
    data: { userId: 'u1', codeHash, at: now },
  });
  const signIn = (recoveryCodeHash: string | null) =>
    ({ type: 'SignInWithSecondFactor', data: { userId: 'u1', recoveryCodeHash, now } }) as const;

  it('turns the app on once, with its recovery codes', () => {
    spec
      .given([registered])
      .when({ type: 'EnableTotp', data: { userId: 'u1', recoveryCodeHashes: ['r1', 'r2'], now } })
      .then([enabled]);
    spec
      .given([registered, enabled])
      .when({ type: 'EnableTotp', data: { userId: 'u1', recoveryCodeHashes: ['r3'], now } })
      .thenThrows({ code: 'MFA_ALREADY_ENABLED' });
  });

  it('signs in with the app’s code (checked by the caller), or a recovery code once', () => {
    spec
      .given([registered, enabled])
      .when(signIn(null))
      .then([{ type: 'UserLoggedIn', data: { userId: 'u1', at: now, method: 'totp' } }]);
    spec
      .given([registered, enabled])
      .when(signIn('r2'))
      .then([used('r2'), { type: 'UserLoggedIn', data: { userId: 'u1', at: now, method: 'recovery_code' } }]);
    spec
      .given([registered, enabled, used('r2')])
      .when(signIn('r2'))
      .thenThrows({ code: 'MFA_INVALID' });
    spec.given([registered, enabled]).when(signIn('nope')).thenThrows({ code: 'MFA_INVALID' });
  });

  it('refuses a second factor sign-in without an app, or of a banned user', () => {
    spec.given([registered]).when(signIn(null)).thenThrows({ code: 'MFA_INVALID' });
    spec
      .given([registered, enabled, { type: 'UserBanned', data: { userId: 'u1', by: 'a1', at: now } }])
      .when(signIn(null))
      .thenThrows({ code: 'ACCOUNT_BANNED' });
  });

  it('turns the app off with a fresh code, using up a recovery code given for it; the codes go with it', () => {
    spec
      .given([registered, enabled])
      .when({ type: 'DisableTotp', data: { userId: 'u1', recoveryCodeHash: 'r1', now } })
      .then([used('r1'), { type: 'TotpDisabled', data: { userId: 'u1', at: now } }]);
    const off: UserEvent = { type: 'TotpDisabled', data: { userId: 'u1', at: now } };
    spec
      .given([registered, enabled, off])
      .when({ type: 'DisableTotp', data: { userId: 'u1', recoveryCodeHash: null, now } })
      .thenThrows({ code: 'MFA_NOT_ENABLED' });
    // Turned on again: the old recovery codes are gone.
    spec
      .given([registered, enabled, off, { ...enabled, data: { ...enabled.data, recoveryCodeHashes: ['r9'] } }])
      .when(signIn('r1'))
      .thenThrows({ code: 'MFA_INVALID' });
  });

  it('lets an e-mailed sign-in link stand for the password only: with an app on, no sign-in is recorded', () => {
    spec
      .given([registered, enabled])
      .when({ type: 'SignInWithLink', data: { userId: 'u1', linkIssuedAt: now, now } })
      .then([]);
  });

  it('records sessions signed out by the user, when there were any', () => {
    spec
      .given([registered])
      .when({ type: 'RecordSessionsSignedOut', data: { userId: 'u1', count: 2, now } })
      .then([{ type: 'SessionsSignedOut', data: { userId: 'u1', count: 2, at: now } }]);
    spec
      .given([registered])
      .when({ type: 'RecordSessionsSignedOut', data: { userId: 'u1', count: 0, now } })
      .then([]);
  });

  it('records a sign-in from a new device as its caller saw it', () => {
    spec
      .given([registered])
      .when({ type: 'RecordNewDevice', data: { userId: 'u1', device: 'Chrome on Linux', ip: '10.0.0.1', now } })
      .then([
        { type: 'SignInFromNewDevice', data: { userId: 'u1', device: 'Chrome on Linux', ip: '10.0.0.1', at: now } },
      ]);
  });

  it('never records a sign-in with the password alone once the app is on', () => {
    spec
      .given([registered, enabled])
      .when({ type: 'RecordLogin', data: { userId: 'u1', now } })
      .thenThrows({ code: 'MFA_REQUIRED' });
  });
});

/** Passkeys on the user's stream: added (the first with recovery codes), removed, and signing in. */
describe('user decider: passkeys', () => {
  const spec = deciderSpec(userDecider);
  const now = '2026-11-27T10:00:00.000Z';
  const key = (credentialId: string) => ({
    credentialId,
    publicKey: `pk-${credentialId}`,
    name: 'Laptop',
    transports: ['internal'],
  });
  const add = (credentialId: string, recoveryCodeHashes = ['r1', 'r2']) =>
    ({ type: 'AddPasskey', data: { userId: 'u1', ...key(credentialId), recoveryCodeHashes, now } }) as const;
  const added = (credentialId: string, recoveryCodeHashes?: string[]): UserEvent => ({
    type: 'PasskeyAdded',
    data: { userId: 'u1', ...key(credentialId), ...(recoveryCodeHashes ? { recoveryCodeHashes } : {}), at: now },
  });
  const removed = (credentialId: string): UserEvent => ({
    type: 'PasskeyRemoved',
    data: { userId: 'u1', credentialId, at: now },
  });
  const signIn = (credentialId: string) =>
    ({ type: 'SignInWithPasskey', data: { userId: 'u1', credentialId, now } }) as const;
  const recoverySignIn = {
    type: 'SignInWithSecondFactor',
    data: { userId: 'u1', recoveryCodeHash: 'r1', now },
  } as const;

  it('adds the first passkey with recovery codes, later ones without; never the same one twice, nor an eleventh', () => {
    spec
      .given([registered])
      .when(add('k1'))
      .then([added('k1', ['r1', 'r2'])]);
    spec
      .given([registered, added('k1', ['r1', 'r2'])])
      .when(add('k2', ['r3']))
      .then([added('k2')]);
    // An app on already: its codes stand, the passkey brings none.
    spec
      .given([registered, { type: 'TotpEnabled', data: { userId: 'u1', recoveryCodeHashes: ['t1'], at: now } }])
      .when(add('k1'))
      .then([added('k1')]);
    spec
      .given([registered, added('k1', ['r1'])])
      .when(add('k1'))
      .thenThrows({ code: 'PASSKEY_EXISTS' });
    const ten = Array.from({ length: 10 }, (_, i) => added(`k${i}`, i === 0 ? ['r1'] : undefined));
    spec
      .given([registered, ...ten])
      .when(add('k10'))
      .thenThrows({ code: 'PASSKEY_LIMIT' });
    spec.given([]).when(add('k1')).thenThrows({ code: 'USER_NOT_FOUND' });
  });

  it('signs in with a passkey the stream holds, unless the user is banned or unverified', () => {
    spec
      .given([registered, added('k1', ['r1'])])
      .when(signIn('k1'))
      .then([{ type: 'UserLoggedIn', data: { userId: 'u1', at: now, method: 'passkey' } }]);
    spec
      .given([registered, added('k1', ['r1']), removed('k1')])
      .when(signIn('k1'))
      .thenThrows({ code: 'PASSKEY_INVALID' });
    spec.given([registered]).when(signIn('k1')).thenThrows({ code: 'PASSKEY_INVALID' });
    spec.given([]).when(signIn('k1')).thenThrows({ code: 'PASSKEY_INVALID' });
    spec
      .given([registered, added('k1', ['r1']), { type: 'UserBanned', data: { userId: 'u1', by: 'a1', at: now } }])
      .when(signIn('k1'))
      .thenThrows({ code: 'ACCOUNT_BANNED' });
    const unverified: UserEvent = { ...registered, data: { ...registered.data, emailVerified: false } };
    spec
      .given([unverified, added('k1', ['r1'])])
      .when(signIn('k1'))
      .thenThrows({ code: 'EMAIL_NOT_VERIFIED' });
  });

  it('makes a passkey a second factor: the password alone, or an e-mailed link, no longer signs in', () => {
    spec
      .given([registered, added('k1', ['r1'])])
      .when({ type: 'RecordLogin', data: { userId: 'u1', now } })
      .thenThrows({ code: 'MFA_REQUIRED' });
    spec
      .given([registered, added('k1', ['r1'])])
      .when({ type: 'SignInWithLink', data: { userId: 'u1', linkIssuedAt: now, now } })
      .then([]);
    // A recovery code finishes the sign-in; an app's code, which this account has no app for, does not.
    spec
      .given([registered, added('k1', ['r1'])])
      .when(recoverySignIn)
      .then([
        { type: 'RecoveryCodeUsed', data: { userId: 'u1', codeHash: 'r1', at: now } },
        { type: 'UserLoggedIn', data: { userId: 'u1', at: now, method: 'recovery_code' } },
      ]);
    spec
      .given([registered, added('k1', ['r1'])])
      .when({ type: 'SignInWithSecondFactor', data: { userId: 'u1', recoveryCodeHash: null, now } })
      .thenThrows({ code: 'MFA_INVALID' });
  });

  it('removes a passkey it holds; the recovery codes go with the last second factor only', () => {
    spec
      .given([registered, added('k1', ['r1'])])
      .when({ type: 'RemovePasskey', data: { userId: 'u1', credentialId: 'k1', now } })
      .then([removed('k1')]);
    spec
      .given([registered])
      .when({ type: 'RemovePasskey', data: { userId: 'u1', credentialId: 'k1', now } })
      .thenThrows({ code: 'PASSKEY_NOT_FOUND' });
    // The last one gone: the codes are nothing, and the password alone signs in again.
    spec
      .given([registered, added('k1', ['r1']), removed('k1')])
      .when(recoverySignIn)
      .thenThrows({ code: 'MFA_INVALID' });
    spec
      .given([registered, added('k1', ['r1']), removed('k1')])
      .when({ type: 'RecordLogin', data: { userId: 'u1', now } })
      .then([{ type: 'UserLoggedIn', data: { userId: 'u1', at: now } }]);
    // One of two gone, or the app turned off beside a passkey: the codes stand.
    spec
      .given([registered, added('k1', ['r1']), added('k2'), removed('k1')])
      .when(recoverySignIn)
      .then([
        { type: 'RecoveryCodeUsed', data: { userId: 'u1', codeHash: 'r1', at: now } },
        { type: 'UserLoggedIn', data: { userId: 'u1', at: now, method: 'recovery_code' } },
      ]);
    spec
      .given([
        registered,
        { type: 'TotpEnabled', data: { userId: 'u1', recoveryCodeHashes: ['r1'], at: now } },
        added('k1'),
        { type: 'TotpDisabled', data: { userId: 'u1', at: now } },
      ])
      .when({ type: 'ConfirmWithRecoveryCode', data: { userId: 'u1', recoveryCodeHash: 'r1', now } })
      .then([{ type: 'RecoveryCodeUsed', data: { userId: 'u1', codeHash: 'r1', at: now } }]);
  });
});
