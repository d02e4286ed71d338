import type { User } from '@seatlink/contracts';

export function aUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u-1',
    email: 'user@seatlink.test',
    email_verified: true,
    is_admin: false,
    is_banned: false,
    created_at: '2025-01-15T10:00:00.000Z',
    last_logged_in_at: null,
    balance: 100,
    distribution_cost: 5,
    first_name: 'Uma',
    last_name: 'User',
    ...overrides,
  };
}
