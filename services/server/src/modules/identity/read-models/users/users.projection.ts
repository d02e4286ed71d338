import { ADMINS_ROOM } from '@seatlink/contracts';
import { users } from '../../identity.schema.js';
import { rowProjection } from '../../../../infra/subscriptions/row-projection.js';
import type { UserEvent } from '../../user.events.js';

const ADMIN_VISIBLE: ReadonlySet<UserEvent['type']> = new Set([
  'UserRegistered',
  'EmailVerified',
  'UserBanned',
  'UserUnbanned',
]);

/** The `users` read model: one row per registered user. */
export const usersProjection = rowProjection<typeof users, UserEvent>({
  name: 'users',
  table: users,
  key: 'id',
  handles: ['UserRegistered', 'UserLoggedIn', 'EmailVerified', 'PasswordChanged', 'UserBanned', 'UserUnbanned'],
  keyOf: (event) => event.data.userId,
  evolve(row, event) {
    if (event.type === 'UserRegistered') {
      if (row) return row;
      const d = event.data;
      return {
        id: d.userId,
        email: d.email,
        passwordHash: d.passwordHash,
        firstName: d.firstName,
        lastName: d.lastName,
        isAdmin: d.isAdmin,
        isBanned: false,
        emailVerified: d.emailVerified,
        distributionCost: null,
        createdAt: new Date(d.registeredAt),
        lastLoggedInAt: null,
      };
    }
    if (!row) return null;
    switch (event.type) {
      case 'UserLoggedIn':
        return { ...row, lastLoggedInAt: new Date(event.data.at) };
      case 'EmailVerified':
        return { ...row, emailVerified: true };
      case 'PasswordChanged':
        return { ...row, passwordHash: event.data.passwordHash };
      case 'UserBanned':
        return { ...row, isBanned: true };
      case 'UserUnbanned':
        return { ...row, isBanned: false };
      default:
        return row;
    }
  },
  live: (after, _before, events) =>
    after && events.some((e) => ADMIN_VISIBLE.has(e.type))
      ? [{ to: ADMINS_ROOM, event: 'admin.user.updated', payload: { user_id: after.id } }]
      : [],
});
