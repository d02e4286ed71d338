import { Body, Controller, HttpCode, Inject, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  BULK_LINK_MESSAGES,
  type BulkLinkFailure,
  type BulkRecallRequest,
  bulkRecallRequestSchema,
  type BulkRecallResponse,
  bulkRecallResponseSchema,
  type BulkUpdateInput,
  bulkUpdateRequestSchema,
  type BulkUpdateResponse,
  bulkUpdateResponseSchema,
  type User,
} from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { EVENT_STORE, type EventStore, latestPosition } from '../../infra/event-store/event-store.port.js';
import { ClientIp, CurrentUser, ApiKeyScoped } from '../../infra/http/auth.decorators.js';
import { CommandId } from '../../infra/http/command-id.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { forEachLink, linkCommandId } from './bulk-links.js';
import { RecallLinkCommand } from './recall-link.flow.js';
import { PasswordHasher } from '../identity/index.js';
import { changesOf, editedDistribution, UpdateLinkCommand } from './update-link.flow.js';

/**
 * Many of a user's links at once: recall them, or give them all the same changes (and each its own recipient). Each link is recalled or edited as
 * it would be alone (its own command, decided on its ticket's stream, its own audit entry marked bulk); the answer
 * lists those done and those refused with why. When none was done, the answer is the first refusal (404 or 409) with
 * the list.
 */
@Controller('v1/distributions')
export class BulkLinksController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly waiter: ReadModelWaiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly hasher: PasswordHasher,
  ) {}

  @ApiKeyScoped('links:write')
  @Post('recall')
  @HttpCode(200)
  @Answers(bulkRecallResponseSchema)
  async recall(
    @Body({ schema: bulkRecallRequestSchema }) body: BulkRecallRequest,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<BulkRecallResponse> {
    const { done, failed } = await forEachLink(body.distribution_ids, async (distributionId) => {
      const recalled = await this.commandBus.execute(
        new RecallLinkCommand({
          userId: user.id,
          distributionId,
          ip,
          bulk: true,
          commandId: linkCommandId(commandId, distributionId),
        }),
      );
      return { distributionId, ...recalled };
    });
    const pending = await this.settle(done, failed, ['TicketRecalled', 'RecallRefused']);
    return {
      message: BULK_LINK_MESSAGES.recalled(done.length),
      recalled: done.map((d) => ({ distribution_id: d.distributionId, ticket_id: d.ticketId })),
      failed,
      ...(pending ? { pending } : {}),
    };
  }

  @ApiKeyScoped('links:write')
  @Patch()
  @Answers(bulkUpdateResponseSchema)
  async update(
    @Body({ schema: bulkUpdateRequestSchema }) body: BulkUpdateInput,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<BulkUpdateResponse> {
    const changes = await changesOf(body, this.hasher);
    // Whom each listed link is for now (a link not listed keeps its recipient).
    const recipients = new Map((body.recipients ?? []).map((r) => [r.distribution_id, r.recipient]));
    const { done, failed } = await forEachLink(body.distribution_ids, async (distributionId) => {
      const recipient = recipients.get(distributionId);
      const updated = await this.commandBus.execute(
        new UpdateLinkCommand({
          userId: user.id,
          distributionId,
          changes: recipient === undefined ? changes : { ...changes, recipient },
          ip,
          bulk: true,
          commandId: linkCommandId(commandId, distributionId),
        }),
      );
      return { distributionId, ...updated };
    });
    const pending = await this.settle(done, failed, ['LinkUpdated', 'LinkUpdateRefused']);
    return {
      message: BULK_LINK_MESSAGES.updated(done.length),
      updated: done.map((d) => ({
        ticket_id: d.ticketId,
        state: d.state,
        distribution: editedDistribution(d.distributionId, d, this.config.DASHBOARD_URL),
      })),
      failed,
      ...(pending ? { pending } : {}),
    };
  }

  /**
   * Waits until what the request wrote reads back (its refusals' audit entries too); when nothing was done, throws the
   * first refusal with the list. Answers whether a read model still lags.
   */
  private async settle(
    done: ReadonlyArray<{ position: string | null }>,
    failed: readonly BulkLinkFailure[],
    types: readonly string[],
  ): Promise<boolean> {
    const position = latestPosition(
      this.store,
      done.map((d) => d.position),
    );
    const pending = !(await this.waiter.waitFor(position, types));
    if (done.length === 0) {
      const first = failed[0]!;
      throw new DomainError(first.message, first.code, first.code === 'DISTRIBUTION_NOT_FOUND' ? 404 : 409, {
        failed,
        ...(pending ? { pending } : {}),
      });
    }
    return pending;
  }
}
