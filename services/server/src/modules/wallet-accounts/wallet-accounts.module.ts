import { Module } from '@nestjs/common';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { AccountsController, AccountTicketsController } from './accounts.controller.js';
import { AdminAccountsController } from './admin-accounts.controller.js';
import { ReleaseWalletLinkJob, WalletLinkClaimsWatch } from './link-account.compensation.job.js';
import { LinkWalletAccountFlow } from './link-account.flow.js';
import { PassClaimsReaction } from './pass-claims.reaction.js';
import { PurgeRemovedTicketsJob } from './purge-removed-tickets.job.js';
import { passGroupsProjection } from './read-models/pass-groups.projection.js';
import { ticketsProjection } from './read-models/tickets.projection.js';
import { walletAccountsProjection } from './read-models/wallet-accounts.projection.js';
import { SyncWalletAccountJob } from './sync-wallet-account.job.js';
import {
  PassCommandBatchHandler,
  PassCommandHandler,
  WalletAccountCommandHandler,
  WalletLinkCommandHandler,
} from './wallet-account.handler.js';
import { WalletGateway } from './wallet-gateway.service.js';
import { WalletSyncScheduleReaction, WalletSyncSchedules } from './wallet-sync-schedule.reaction.js';
import { WalletSyncHealth } from './wallet-sync.health.js';

/**
 * Wallet accounts and their tickets: linking (the provider's sign-in, never its password kept; a flow over the link
 * claim and the account), syncs by a job per account, the tickets read model, and duplicate passes decided by each
 * pass's stream.
 */
@Module({
  controllers: [AccountsController, AccountTicketsController, AdminAccountsController],
  providers: [
    WalletGateway,
    WalletAccountCommandHandler,
    WalletLinkCommandHandler,
    PassCommandHandler,
    PassCommandBatchHandler,
    LinkWalletAccountFlow,
    ReleaseWalletLinkJob,
    WalletLinkClaimsWatch,
    SyncWalletAccountJob,
    PurgeRemovedTicketsJob,
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
