import { rowProjection } from '../../../infra/subscriptions/row-projection.js';
import type { WalletAccountEvent } from '../wallet-account.events.js';
import { walletAccounts } from '../wallet-accounts.schema.js';

/** `wallet_accounts`: the linked accounts, with their error state. A deleted account leaves the table. */
export const walletAccountsProjection = rowProjection<typeof walletAccounts, WalletAccountEvent>({
  name: 'wallet-accounts',
  table: walletAccounts,
  key: 'id',
  handles: ['WalletAccountLinked', 'WalletAccountReauthenticated', 'WalletAccountAuthFailed', 'WalletAccountDeleted'],
  keyOf: (event) => event.data.accountId,
  evolve(row, event) {
    switch (event.type) {
      case 'WalletAccountLinked': {
        if (row) return row;
        const d = event.data;
        return {
          id: d.accountId,
          userId: d.userId,
          email: d.email,
          firstName: d.firstName,
          lastName: d.lastName,
          displayName: d.displayName,
          providerAccountId: d.providerAccountId,
          inErrorState: false,
          lastError: null,
          createdAt: new Date(d.at),
          updatedAt: new Date(d.at),
        };
      }
      case 'WalletAccountReauthenticated':
        return row && { ...row, inErrorState: false, lastError: null, updatedAt: new Date(event.data.at) };
      case 'WalletAccountAuthFailed':
        return row && { ...row, inErrorState: true, lastError: event.data.reason, updatedAt: new Date(event.data.at) };
      case 'WalletAccountDeleted':
        return null;
      default:
        return row;
    }
  },
  live: (after, before) => {
    const row = after ?? before;
    if (!row) return [];
    const payload = { account_id: row.id, user_id: row.userId };
    return [
      { to: { userId: row.userId }, event: 'account.updated', payload },
      { to: 'admins', event: 'account.updated', payload },
    ];
  },
});
