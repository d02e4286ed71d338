import { eq } from 'drizzle-orm';
import { ADMINS_ROOM } from '@seatlink/contracts';
import { users } from '../../../../infra/db/schema.js';
import type { Projection } from '../../../../infra/projections/projection.js';
import type { UserEvent } from '../../user.events.js';

/** The `users` read model: one row per registered user. */
export const usersProjection: Projection = {
  name: 'users',
  tables: ['users'],
  handles: ['UserRegistered', 'UserLoggedIn', 'EmailVerified', 'PasswordChanged', 'UserBanned', 'UserUnbanned'],
  async apply(recorded, { tx, push }) {
    const event = { type: recorded.type, data: recorded.data } as UserEvent;
    switch (event.type) {
      case 'UserRegistered': {
        const d = event.data;
        await tx
          .insert(users)
          .values({
            id: d.userId,
            email: d.email,
            passwordHash: d.passwordHash,
            firstName: d.firstName,
            lastName: d.lastName,
            isAdmin: d.isAdmin,
            emailVerified: d.emailVerified,
            createdAt: new Date(d.registeredAt),
          })
          .onConflictDoNothing();
        push({ to: ADMINS_ROOM, event: 'admin.user.updated', payload: { user_id: d.userId } });
        return;
      }
      case 'UserLoggedIn':
        await tx
          .update(users)
          .set({ lastLoggedInAt: new Date(event.data.at) })
          .where(eq(users.id, event.data.userId));
        return;
      case 'EmailVerified':
        await tx.update(users).set({ emailVerified: true }).where(eq(users.id, event.data.userId));
        push({ to: ADMINS_ROOM, event: 'admin.user.updated', payload: { user_id: event.data.userId } });
        return;
      case 'PasswordChanged':
        await tx.update(users).set({ passwordHash: event.data.passwordHash }).where(eq(users.id, event.data.userId));
        return;
      case 'UserBanned':
      case 'UserUnbanned':
        await tx
          .update(users)
          .set({ isBanned: event.type === 'UserBanned' })
          .where(eq(users.id, event.data.userId));
        push({ to: ADMINS_ROOM, event: 'admin.user.updated', payload: { user_id: event.data.userId } });
        return;
    }
  },
};
