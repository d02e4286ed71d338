import { asSubscription, type Subscription } from '../../../infra/subscriptions/subscription.js';
import { type TicketDistributed, ticketDistributionStream } from '../../distribution/index.js';
import { type WalletAccountLinked, walletAccountStream } from '../../wallet-accounts/index.js';
import { userStreams } from '../admin.schema.js';

type Row = typeof userStreams.$inferInsert;

/** `user_streams`: which account and ticket streams belong to each user's history. */
export const userStreamsProjection: Subscription = asSubscription({
  name: 'user-streams',
  kind: 'projection',
  tables: ['user_streams'],
  handles: ['WalletAccountLinked', 'TicketDistributed'],
  async apply(events, { tx }) {
    const rows = new Map<string, Row>();
    for (const recorded of events) {
      let row: Row | null = null;
      if (recorded.type === 'WalletAccountLinked') {
        const { data } = recorded as unknown as WalletAccountLinked;
        row = {
          userId: data.userId,
          streamId: walletAccountStream(data.accountId),
          kind: 'wallet-account',
          firstAt: recorded.createdAt,
        };
      } else if (recorded.type === 'TicketDistributed') {
        const { data } = recorded as unknown as TicketDistributed;
        row = {
          userId: data.userId,
          streamId: ticketDistributionStream(data.ticketId),
          kind: 'ticket-distribution',
          firstAt: recorded.createdAt,
        };
      }
      if (row && !rows.has(`${row.userId}|${row.streamId}`)) rows.set(`${row.userId}|${row.streamId}`, row);
    }
    const values = [...rows.values()];
    for (let i = 0; i < values.length; i += 500) {
      await tx
        .insert(userStreams)
        .values(values.slice(i, i + 500))
        .onConflictDoNothing();
    }
  },
});
