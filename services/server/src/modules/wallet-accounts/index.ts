// The wallet-accounts module's public face: what other modules may use. Import it from here, never from its files.
export { accountAt } from './read-models/account-at.js';
export { ticketAndAccountNames, ticketsForDistribution, ticketTitleAndSeat } from './read-models/accounts.queries.js';
export {
  type TicketChanged,
  type TicketDiscovered,
  type TicketGone,
  type WalletAccountDeleted,
  type WalletAccountLinked,
  type WalletAccountSynced,
  walletAccountStream,
} from './wallet-account.events.js';
export { walletAccountsRoutines } from './wallet-accounts.routines.js';
export { WalletAccountsModule } from './wallet-accounts.module.js';
