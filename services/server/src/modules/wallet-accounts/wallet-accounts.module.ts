import { Module } from '@nestjs/common';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { AccountsController, AccountTicketsController } from './accounts.controller.js';
import { AdminAccountsController } from './admin-accounts.controller.js';
import { DeleteWalletAccountHandler } from './delete-account.handler.js';
import { LinkWalletAccountHandler } from './link-account.handler.js';
import { PassClaimsReaction } from './pass-claims.reaction.js';
import { ReauthenticateWalletAccountHandler } from './reauthenticate-account.handler.js';
import { passGroupsProjection } from './read-models/pass-groups.projection.js';
import { ticketsProjection } from './read-models/tickets.projection.js';
import { walletAccountsProjection } from './read-models/wallet-accounts.projection.js';
import { SyncWalletAccountJob } from './sync-wallet-account.job.js';
import { WalletGateway } from './wallet-gateway.service.js';
import { WalletSyncScheduleReaction, WalletSyncSchedules } from './wallet-sync-schedule.reaction.js';
import { WalletSyncHealth } from './wallet-sync.health.js';

/**
 * Wallet accounts and their tickets: linking (the provider's sign-in, never its password kept), syncs by a job per
 * account, the tickets read model, and duplicate passes decided by each pass's stream.
 */
@Module({
  controllers: [AccountsController, AccountTicketsController, AdminAccountsController],
  providers: [
    WalletGateway,
    LinkWalletAccountHandler,
    ReauthenticateWalletAccountHandler,
    DeleteWalletAccountHandler,
    SyncWalletAccountJob,
    provideSubscription(walletAccountsProjection),
    provideSubscription(ticketsProjection),
    provideSubscription(passGroupsProjection),
    PassClaimsReaction,
    WalletSyncScheduleReaction,
    WalletSyncSchedules,
    WalletSyncHealth,
  ],
})
export class WalletAccountsModule {}
