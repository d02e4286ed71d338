import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { userDecider } from './user.decider.js';
import type { UserEvent } from './user.events.js';

/** The user stream's second factor: an authenticator app turned on and off, and recovery codes used once. */
describe('user decider: a second factor', () => {
  const spec = deciderSpec(userDecider);
  const now = '2026-11-27T09:00:00.000Z';
  const registered: UserEvent = {
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
});
