import { Body, Controller, Get, HttpCode, Inject, NotFoundException, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type ClickTimelineResponse,
  clickTimelineResponseSchema,
  type DistributeCommandInput,
  type DistributeResponse,
  distributeRequestSchema,
  distributeResponseSchema,
  DISTRIBUTION_MESSAGES,
  distributionIdParamSchema,
  type RecallResponse,
  recallResponseSchema,
  type UpdateDistributionInput,
  updateDistributionRequestSchema,
  type UpdateDistributionResponse,
  updateDistributionResponseSchema,
  type User,
} from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ReadReplicas, readersOf } from '../../infra/db/read-replicas.js';
import { CommandId } from '../../infra/http/command-id.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { ClientIp, CurrentUser, ApiKeyScoped } from '../../infra/http/auth.decorators.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { linkUrl } from './link-url.js';
import { DistributeTicketsCommand } from './distribute-tickets.command.js';
import { clickTimeline } from './read-models/links.queries.js';
import { RecallLinkCommand } from './recall-link.flow.js';
import { PasswordHasher, SessionPolicy } from '../identity/index.js';
import { changesOf, recipientsByTicket, editedDistribution, UpdateLinkCommand } from './update-link.flow.js';

const STATUS_OF_REFUSAL: Record<string, 402 | 404 | 409> = {
  INSUFFICIENT_CREDITS: 402,
  TICKET_NOT_FOUND: 404,
  ALREADY_DISTRIBUTED: 409,
  DUPLICATE_TICKET: 409,
};

/** Distribute tickets as links, and recall them (docs/reference.md "API calls"). */
@Controller('v1')
export class DistributionController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly waiter: ReadModelWaiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) private readonly database: Database,
    private readonly hasher: PasswordHasher,
    private readonly policy: SessionPolicy,
    private readonly reads: ReadReplicas,
  ) {}

  /** A link's click timeline (counted clicks per minute): its owner's, or any link for admins. */
  @ApiKeyScoped('links:read')
  @Get('distributions/:id/clicks')
  @Answers(clickTimelineResponseSchema)
  async clicks(
    @Param('id', { schema: distributionIdParamSchema }) distributionId: string,
    @CurrentUser() user: User,
  ): Promise<ClickTimelineResponse> {
    const isAdmin = await this.policy.adminAllowed(user);
    const timeline = await this.reads.read(readersOf(user), (db) =>
      clickTimeline(db, distributionId, { id: user.id, isAdmin }),
    );
    if (!timeline) throw new NotFoundException('Distribution not found');
    return timeline;
  }

  /**
   * One link per ticket that can have one; the others are listed in `failed` with why. When none got a link the
   * answer is the refusal itself (402 without the credits, 404 for tickets not the caller's, 409 otherwise), with the
   * list.
   */
  @ApiKeyScoped('links:write')
  @Post('tickets/distribute')
  @HttpCode(200)
  @Answers(distributeResponseSchema)
  async distribute(
    @Body({ schema: distributeRequestSchema }) body: DistributeCommandInput,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<DistributeResponse> {
    const outcome = await this.commandBus.execute(
      new DistributeTicketsCommand({
        userId: user.id,
        ticketIds: body.ticket_ids,
        expiresAt: body.expiry_date,
        maxClicks: body.max_clicks,
        label: body.label,
        pin: body.pin,
        recipients: recipientsByTicket(body.recipients),
        ip,
        commandId,
      }),
    );
    const failed = outcome.refused.map((r) => ({ ticket_id: r.ticketId, code: r.code, message: r.message }));
    // A refusal may have written too (credits paid back for links another request made first, its audit entries):
    // either answer comes once what it wrote reads back, so the balance it states is the one the next read shows.
    const pending = !(await this.waiter.waitFor(outcome.position, [
      'TicketDistributed',
      'DistributionRefused',
      'CreditsDebited',
      'CreditsRefunded',
    ]));
    if (outcome.distributed.length === 0) {
      const first = failed[0];
      throw new DomainError(
        first?.message ?? DISTRIBUTION_MESSAGES.noTickets,
        first?.code ?? 'TICKET_NOT_FOUND',
        STATUS_OF_REFUSAL[first?.code ?? ''] ?? 409,
        { failed, balance: outcome.balance, ...(pending ? { pending } : {}) },
      );
    }
    return {
      distributions: outcome.distributed.map((d) => ({
        ticket_id: d.ticketId,
        distribution_id: d.distributionId,
        link: linkUrl(this.config.DASHBOARD_URL, d.code),
      })),
      failed,
      balance: outcome.balance,
      ...(pending ? { pending } : {}),
    };
  }

  /**
   * Changes a live link's expiry, click limit or label without recalling it or paying again (see UpdateLinkFlow).
   * Answers the link as claims now see it, once the edit reads back in the owner's views.
   */
  @ApiKeyScoped('links:write')
  @Patch('distributions/:id')
  @Answers(updateDistributionResponseSchema)
  async update(
    @Param('id', { schema: distributionIdParamSchema }) distributionId: string,
    @Body({ schema: updateDistributionRequestSchema }) body: UpdateDistributionInput,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<UpdateDistributionResponse> {
    const updated = await this.commandBus.execute(
      new UpdateLinkCommand({
        userId: user.id,
        distributionId,
        changes: await changesOf(body, this.hasher),
        ip,
        commandId,
      }),
    );
    const pending = !(await this.waiter.waitFor(updated.position, ['LinkUpdated']));
    return {
      message: DISTRIBUTION_MESSAGES.updated,
      ticket_id: updated.ticketId,
      state: updated.state,
      distribution: editedDistribution(distributionId, updated, this.config.DASHBOARD_URL),
      ...(pending ? { pending } : {}),
    };
  }

  /** Recalls the user's link: see RecallLinkFlow. */
  @ApiKeyScoped('links:write')
  @Post('distributions/:id/recall')
  @HttpCode(200)
  @Answers(recallResponseSchema)
  async recall(
    @Param('id', { schema: distributionIdParamSchema }) distributionId: string,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<RecallResponse> {
    const { ticketId, position } = await this.commandBus.execute(
      new RecallLinkCommand({ userId: user.id, distributionId, ip, commandId }),
    );
    const pending = !(await this.waiter.waitFor(position, ['TicketRecalled']));
    return {
      message: DISTRIBUTION_MESSAGES.recalled,
      distribution_id: distributionId,
      ticket_id: ticketId,
      ...(pending ? { pending } : {}),
    };
  }
}
