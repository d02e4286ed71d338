import { ADMINS_ROOM } from '@seatlink/contracts';
import { creditBalances } from '../../../../infra/db/schema.js';
import type { Projection } from '../../../../infra/projections/projection.js';
import type { CreditsEvent } from '../../credits.events.js';

/** `credit_balances`: each user's spendable credits. */
export const balanceProjection: Projection = {
  name: 'balances',
  tables: ['credit_balances'],
  handles: ['CreditsSet'],
  async apply(recorded, { tx, push }) {
    const event = { type: recorded.type, data: recorded.data } as CreditsEvent;
    switch (event.type) {
      case 'CreditsSet': {
        const { userId, credits } = event.data;
        await tx
          .insert(creditBalances)
          .values({ userId, balance: credits, updatedAt: recorded.createdAt })
          .onConflictDoUpdate({
            target: creditBalances.userId,
            set: { balance: credits, updatedAt: recorded.createdAt },
          });
        push({ to: { userId }, event: 'balance.updated', payload: { user_id: userId, balance: credits } });
        push({ to: ADMINS_ROOM, event: 'admin.user.updated', payload: { user_id: userId } });
        return;
      }
    }
  },
};
