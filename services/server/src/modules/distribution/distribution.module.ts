import { Module } from '@nestjs/common';
import { PasswordHasher } from '../identity/index.js';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { BulkLinksController } from './bulk-links.controller.js';
import { ClickPusher } from './click-pusher.service.js';
import { ClickOutbox } from './click-outbox.service.js';
import { DistributeTicketsFlow } from './distribute-tickets.flow.js';
import { DistributionController } from './distribution.controller.js';
import { RecallLinkFlow } from './recall-link.flow.js';
import { UpdateLinkFlow } from './update-link.flow.js';
import { RecipientMailsReaction } from './recipient-mails.reaction.js';
import { RecipientUnsubscribeController } from './recipient-unsubscribe.controller.js';
import { LinkClaims } from './link-claims.service.js';
import { LinkPins } from './link-pins.service.js';
import { linkCountersReaction } from './link-counters.js';
import { LinkExportController } from './link-export.controller.js';
import { LinksController } from './links.controller.js';
import { LinkActivityController } from './link-activity.controller.js';
import { LinkOpensController } from './link-opens.controller.js';
import { LinkOpens } from './link-opens.service.js';
import { linkOpensProjection } from './read-models/link-opens.projection.js';
import { linkClickTimelineProjection } from './read-models/link-click-timeline.projection.js';
import { linksProjection } from './read-models/links.projection.js';
import { ClaimLinkRoute } from './claim-link.route.js';
import { PurgeClaimKeysJob } from './purge-claim-keys.job.js';
import { WarnExpiringLinksJob } from './warn-expiring-links.job.js';
import { DistributionSettlements } from './distribution-settlements.service.js';
import { SettleDistributionJob, SettleDistributionsJob } from './settle-distribution.job.js';
import { TicketDistributionCommandHandler } from './ticket-distribution.handler.js';

/**
 * Distribution: tickets become links that cost credits; recipients claim them (each claim one counted click, never
 * past a link's limit); the owner recalls them. Every attempt, refused ones too, is an event the audit log reads.
 */
@Module({
  controllers: [
    DistributionController,
    BulkLinksController,
    LinkExportController,
    // Before LinksController: its GET v1/links/:code would otherwise be tried for v1/links/activity.
    LinkActivityController,
    LinksController,
    LinkOpensController,
    RecipientUnsubscribeController,
  ],
  providers: [
    // PINs of links are hashed as passwords are (argon2id).
    PasswordHasher,
    DistributeTicketsFlow,
    RecallLinkFlow,
    UpdateLinkFlow,
    TicketDistributionCommandHandler,
    DistributionSettlements,
    SettleDistributionsJob,
    SettleDistributionJob,
    PurgeClaimKeysJob,
    WarnExpiringLinksJob,
    LinkClaims,
    LinkPins,
    LinkOpens,
    ClaimLinkRoute,
    ClickOutbox,
    ClickPusher,
    RecipientMailsReaction,
    provideSubscription(linksProjection),
    provideSubscription(linkCountersReaction),
    provideSubscription(linkClickTimelineProjection),
    provideSubscription(linkOpensProjection),
  ],
})
export class DistributionModule {}
