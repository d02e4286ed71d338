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
