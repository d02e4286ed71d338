import { v5 as uuidv5 } from 'uuid';
import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type CreateInviteRequest,
  createInviteRequestSchema,
  inviteCodeParamSchema,
  type InviteCodeResponse,
  inviteCodeResponseSchema,
  type InviteCodesResponse,
  inviteCodesResponseSchema,
  inviteIdParamSchema,
  type MessageResponse,
  messageResponseSchema,
  type User,
} from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { CommandId } from '../../infra/http/command-id.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { AdminOnly, ClientIp, CurrentUser, StepUp } from '../../infra/http/auth.decorators.js';
import { generateInviteCode, InviteCommandMessage } from './invite.command.js';
import type { InviteEvent } from './invite.events.js';
import { findInviteById, listInviteCodes } from './read-models/invite-codes/invite-codes.queries.js';
import { clock } from '../../shared/clock.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The furthest an invite code may expire: five years ahead (a later date is a typo, or a probe). */
const MAX_INVITE_DAYS = 5 * 365;
const INVITE_ID_NAMESPACE = '9d3e6b1c-4f2a-4a8e-b7c5-1e0d9f8a2b63';

/**
 * When a code given as a date stops working: at the end of that day (UTC). The date must be tomorrow or later
 * (docs/reference.md "Admin form rules"), judged by the server's clock.
 */
export function inviteExpiry(expiresAt: string, now: Date): Date {
  const startOfTomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS;
  const isDateOnly = /^\d{4}-\d{2}-\d{2}$/.test(expiresAt);
  const start = Date.parse(isDateOnly ? `${expiresAt}T00:00:00.000Z` : expiresAt);
  if (start < startOfTomorrow) throw new BadRequestException('expires_at must be tomorrow or later');
  if (start > startOfTomorrow + MAX_INVITE_DAYS * DAY_MS) {
    throw new BadRequestException(`expires_at must be within ${MAX_INVITE_DAYS / 365} years`);
  }
  return new Date(isDateOnly ? start + DAY_MS : start);
}

@Controller('v1/admin/invites')
@AdminOnly()
export class AdminInvitesController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly waiter: ReadModelWaiter,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  @Get()
  @Answers(inviteCodesResponseSchema)
  async list(): Promise<InviteCodesResponse> {
    return { invite_codes: await listInviteCodes(this.database.db) };
  }

  /**
   * The answer is the code as the command created it (not read back from the list, which may lag: then 202
   * `pending`). With an Idempotency-Key, a retry answers the same code and creates no second one.
   */
  @Post()
  @StepUp()
  @Answers(inviteCodeResponseSchema)
  async create(
    @Body({ schema: createInviteRequestSchema }) body: CreateInviteRequest & { max_uses: number },
    @CurrentUser() admin: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<InviteCodeResponse> {
    const now = clock.now();
    const expiresAt = inviteExpiry(body.expires_at, now);
    const result = await this.commandBus.execute(
      new InviteCommandMessage(
        {
          type: 'CreateInvite',
          data: {
            inviteId: uuidv5(commandId, INVITE_ID_NAMESPACE),
            code: generateInviteCode(commandId),
            maxUses: body.max_uses,
            expiresAt: expiresAt.toISOString(),
            createdBy: admin.id,
            now: now.toISOString(),
          },
        },
        { actorId: admin.id, ip, commandId },
      ),
    );
    const created = result.events.find(
      (e): e is Extract<InviteEvent, { type: 'InviteCodeCreated' }> => e.type === 'InviteCodeCreated',
    );
    if (!created) throw new Error('Creating an invite code appended no InviteCodeCreated');
    const pending = await this.waiter.pending(result);
    const d = created.data;
    return {
      invite_code: {
        id: d.inviteId,
        code: d.code,
        used: 0,
        max_uses: d.maxUses,
        enabled: true,
        expires_at: new Date(d.expiresAt).toISOString(),
        created_at: new Date(d.at).toISOString(),
      },
      ...(pending ? { pending } : {}),
    };
  }

  @Post(':code/disable')
  @HttpCode(200)
  @Answers(messageResponseSchema)
  async disable(
    @Param('code', { schema: inviteCodeParamSchema }) code: string,
    @CurrentUser() admin: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<MessageResponse> {
    const result = await this.commandBus.execute(
      new InviteCommandMessage(
        { type: 'DisableInvite', data: { code: code.toUpperCase(), by: admin.id, now: clock.now().toISOString() } },
        { actorId: admin.id, ip, commandId },
      ),
    );
    const pending = await this.waiter.pending(result);
    return { message: 'Invite code disabled', ...(pending ? { pending } : {}) };
  }

  @Delete(':id')
  @Answers(messageResponseSchema)
  async remove(
    @Param('id', { schema: inviteIdParamSchema }) id: string,
    @CurrentUser() admin: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<MessageResponse> {
    const invite = await findInviteById(this.database.db, id);
    if (!invite) throw new NotFoundException('Invite code not found');
    const result = await this.commandBus.execute(
      new InviteCommandMessage(
        { type: 'DeleteInvite', data: { code: invite.code, by: admin.id, now: clock.now().toISOString() } },
        { actorId: admin.id, ip, commandId },
      ),
    );
    const pending = await this.waiter.pending(result);
    return { message: 'Invite code deleted', ...(pending ? { pending } : {}) };
  }
}
