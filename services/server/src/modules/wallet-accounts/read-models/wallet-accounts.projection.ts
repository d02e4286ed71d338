import { rowProjection } from '../../../infra/subscriptions/row-projection.js';
import { cleanName } from '../pass-text.js';
import type { WalletAccountEvent } from '../wallet-account.events.js';
import { walletAccounts } from '../wallet-accounts.schema.js';

/**
 * `wallet_accounts`: the linked accounts, with their error states (a refused sign-in; a sync that gave up) and the
 * passes their last sync left out. A deleted account leaves the table. Names from the provider are cleaned here too,
 * so older events cannot put control or bidi formatting characters back on a page.
 */
export const walletAccountsProjection = rowProjection<typeof walletAccounts, WalletAccountEvent>({
  name: 'wallet-accounts',
  table: walletAccounts,
  key: 'id',
  handles: [
    'WalletAccountLinked',
    'WalletAccountReauthenticated',
    'WalletAccountAuthFailed',
    'WalletPassesSkipped',
    'WalletAccountSyncFailed',
    'WalletAccountSyncRecovered',
    'WalletAccountDeleted',
  ],
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
          firstName: cleanName(d.firstName, 100),
          lastName: cleanName(d.lastName, 100),
          displayName: cleanName(d.displayName) || d.email,
          providerAccountId: d.providerAccountId,
          inErrorState: false,
          lastError: null,
          syncError: null,
          skippedPasses: 0,
          createdAt: new Date(d.at),
          updatedAt: new Date(d.at),
          // Stamped by the database as the row is written (wallet-accounts.routines.ts): this value is never kept.
          version: 0,
        };
      }
      case 'WalletAccountReauthenticated':
        return row && { ...row, inErrorState: false, lastError: null, updatedAt: new Date(event.data.at) };
      case 'WalletAccountAuthFailed':
        return row && { ...row, inErrorState: true, lastError: event.data.reason, updatedAt: new Date(event.data.at) };
      case 'WalletPassesSkipped':
        return row && { ...row, skippedPasses: event.data.total, updatedAt: new Date(event.data.at) };
      case 'WalletAccountSyncFailed':
        return row && { ...row, syncError: event.data.reason, updatedAt: new Date(event.data.at) };
      case 'WalletAccountSyncRecovered':
        return row && { ...row, syncError: null, updatedAt: new Date(event.data.at) };
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
