import { ADMINS_ROOM } from '@seatlink/contracts';
import { creditBalances } from '../../credits.schema.js';
import { rowProjection } from '../../../../infra/subscriptions/row-projection.js';
import type { CreditsEvent } from '../../credits.events.js';

/** `credit_balances`: each user's spendable credits. */
export const balanceProjection = rowProjection<typeof creditBalances, CreditsEvent>({
  name: 'balances',
  table: creditBalances,
  key: 'userId',
  handles: ['CreditsSet', 'CreditsDebited', 'CreditsRefunded', 'CreditsPurchased', 'CreditsReversed'],
  keyOf: (event) => event.data.userId,
  evolve(row, event, recorded) {
    switch (event.type) {
      case 'CreditsSet':
        return { userId: event.data.userId, balance: event.data.credits, updatedAt: recorded.createdAt };
      case 'CreditsDebited':
      case 'CreditsRefunded':
      case 'CreditsPurchased':
      case 'CreditsReversed':
        return { userId: event.data.userId, balance: event.data.balanceAfter, updatedAt: recorded.createdAt };
      case 'PaymentDisputed':
      case 'LinkPaymentsCancelled':
        return row;
    }
  },
  live: (after) =>
    after
      ? [
          {
            to: { userId: after.userId },
            event: 'balance.updated',
            payload: { user_id: after.userId, balance: Number(after.balance) },
          },
          { to: ADMINS_ROOM, event: 'admin.user.updated', payload: { user_id: after.userId } },
        ]
      : [],
});
