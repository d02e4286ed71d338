import { Body, Controller, Get, HttpCode, Inject, NotFoundException, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { and, eq, isNull } from 'drizzle-orm';
import {
  type ClickTimelineResponse,
  type DistributeCommandInput,
  type DistributeResponse,
  distributeRequestSchema,
  DISTRIBUTION_MESSAGES,
  distributionIdParamSchema,
  type RecallResponse,
  type User,
} from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { CommandId } from '../../infra/http/command-id.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { ClientIp, CurrentUser } from '../identity/auth.decorators.js';
import { linkUrl } from '../wallet-accounts/read-models/accounts.queries.js';
import { DistributeTicketsCommand } from './distribute-tickets.command.js';
import { DISTRIBUTION_REFUSALS } from './distribution.decider.js';
import { refusalStream } from './distribution.events.js';
import { recordRefusals } from './distribution-refusals.js';
import { links } from './distribution.schema.js';
import { clickTimeline } from './read-models/links.queries.js';
import { TicketDistributionCommandMessage } from './ticket-distribution.command.js';

const STATUS_OF_REFUSAL: Record<string, 402 | 404 | 409> = {
  INSUFFICIENT_CREDITS: 402,
  TICKET_NOT_FOUND: 404,
  ALREADY_DISTRIBUTED: 409,
  DUPLICATE_TICKET: 409,
};

/** Distribute tickets as links, and recall them (SPEC.md §7 Tickets and credits). */
@Controller('v1')
export class DistributionController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly waiter: ReadModelWaiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  /** A link's click timeline (counted clicks per minute): its owner's, or any link for admins. */
  @Get('distributions/:id/clicks')
  async clicks(
    @Param('id', { schema: distributionIdParamSchema }) distributionId: string,
    @CurrentUser() user: User,
  ): Promise<ClickTimelineResponse> {
    const timeline = await clickTimeline(this.database.db, distributionId, { id: user.id, isAdmin: user.is_admin });
    if (!timeline) throw new NotFoundException('Distribution not found');
    return timeline;
  }

  /**
   * One link per ticket that can have one; the others are listed in `failed` with why. When none got a link the
   * answer is the refusal itself (402 without the credits, 404 for tickets not the caller's, 409 otherwise), with the
   * list.
   */
  @Post('tickets/distribute')
  @HttpCode(200)
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
        ip,
        commandId,
      }),
    );
    const failed = outcome.refused.map((r) => ({ ticket_id: r.ticketId, code: r.code, message: r.message }));
    if (outcome.distributed.length === 0) {
      const first = failed[0];
      throw new DomainError(
        first?.message ?? DISTRIBUTION_MESSAGES.noTickets,
        first?.code ?? 'TICKET_NOT_FOUND',
        STATUS_OF_REFUSAL[first?.code ?? ''] ?? 409,
        { failed, balance: outcome.balance },
      );
    }
    const pending = !(await this.waiter.waitFor(outcome.position, [
      'TicketDistributed',
      'DistributionRefused',
      'CreditsDebited',
      'CreditsRefunded',
    ]));
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
   * Recalls a link on its ticket's stream (only the owner's live link), and stops it at once: the link's row is marked
   * recalled in the same breath, so a claim a moment later is refused even while the projections catch up. A refusal
   * is recorded for the audit log, then answered.
   */
  @Post('distributions/:id/recall')
  @HttpCode(200)
  async recall(
    @Param('id', { schema: distributionIdParamSchema }) distributionId: string,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<RecallResponse> {
    const now = new Date();
    const meta = { actorId: user.id, ip, commandId };
    const [link] = await this.database.db
      .select({ ticketId: links.ticketId })
      .from(links)
      .where(eq(links.distributionId, distributionId))
      .limit(1);
    let position: string | null;
    try {
      if (!link) throw DISTRIBUTION_REFUSALS.noDistribution();
      ({ position } = await this.commandBus.execute(
        new TicketDistributionCommandMessage(
          {
            type: 'Recall',
            data: { ticketId: link.ticketId, distributionId, userId: user.id, now: now.toISOString() },
          },
          meta,
        ),
      ));
      await this.database.db
        .update(links)
        .set({ recalledAt: now })
        .where(and(eq(links.distributionId, distributionId), isNull(links.recalledAt)));
    } catch (err) {
      if (err instanceof DomainError) {
        const refused = {
          type: 'RecallRefused' as const,
          data: {
            ticketId: link?.ticketId ?? null,
            distributionId,
            userId: user.id,
            code: err.code,
            reason: err.message,
            at: now.toISOString(),
          },
        };
        await recordRefusals(this.store, refusalStream(user.id, commandId), commandId, [refused], meta);
      }
      throw err;
    }
    const pending = !(await this.waiter.waitFor(position, ['TicketRecalled']));
    return {
      message: DISTRIBUTION_MESSAGES.recalled,
      distribution_id: distributionId,
      ticket_id: link.ticketId,
      ...(pending ? { pending } : {}),
    };
  }
}
