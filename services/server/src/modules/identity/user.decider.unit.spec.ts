import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { emailClaimDecider, userDecider } from './user.decider.js';
import type { UserRegistered } from './user.events.js';

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
