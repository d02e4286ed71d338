import { randomUUID } from 'node:crypto';
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
  type InviteCodesResponse,
  inviteIdParamSchema,
  type MessageResponse,
  type User,
} from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ProjectionWaiter } from '../../infra/projections/projection-waiter.js';
import { AdminOnly, ClientIp, CurrentUser } from '../identity/auth.decorators.js';
import { generateInviteCode, InviteCommandMessage } from './invite.handlers.js';
import { findInviteByCode, findInviteById, listInviteCodes } from './read-models/invite-codes/invite-codes.queries.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When a code given as a date stops working: at the end of that day (UTC). The date must be tomorrow or later
 * (SPEC.md §5), judged by the server's clock.
 */
export function inviteExpiry(expiresAt: string, now: Date): Date {
  const startOfTomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS;
  const isDateOnly = /^\d{4}-\d{2}-\d{2}$/.test(expiresAt);
  const start = Date.parse(isDateOnly ? `${expiresAt}T00:00:00.000Z` : expiresAt);
  if (start < startOfTomorrow) throw new BadRequestException('expires_at must be tomorrow or later');
  return new Date(isDateOnly ? start + DAY_MS : start);
}

@Controller('v1/admin/invites')
@AdminOnly()
export class AdminInvitesController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly waiter: ProjectionWaiter,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  @Get()
  async list(): Promise<InviteCodesResponse> {
    return { invite_codes: await listInviteCodes(this.database.db) };
  }

  @Post()
  async create(
    @Body({ schema: createInviteRequestSchema }) body: CreateInviteRequest & { max_uses: number },
    @CurrentUser() admin: User,
    @ClientIp() ip: string,
  ): Promise<InviteCodeResponse> {
    const now = new Date();
    const expiresAt = inviteExpiry(body.expires_at, now);
    const code = generateInviteCode();
    const { position } = await this.commandBus.execute(
      new InviteCommandMessage(
        {
          type: 'CreateInvite',
          data: {
            inviteId: randomUUID(),
            code,
            maxUses: body.max_uses,
            expiresAt: expiresAt.toISOString(),
            createdBy: admin.id,
            now: now.toISOString(),
          },
        },
        { actorId: admin.id, ip },
      ),
    );
    await this.waiter.waitFor(position);
    const invite = await findInviteByCode(this.database.db, code);
    if (!invite) throw new NotFoundException('Invite code not found');
    return { invite_code: invite };
  }

  @Post(':code/disable')
  @HttpCode(200)
  async disable(
    @Param('code', { schema: inviteCodeParamSchema }) code: string,
    @CurrentUser() admin: User,
    @ClientIp() ip: string,
  ): Promise<MessageResponse> {
    const { position } = await this.commandBus.execute(
      new InviteCommandMessage(
        { type: 'DisableInvite', data: { code: code.toUpperCase(), by: admin.id, now: new Date().toISOString() } },
        { actorId: admin.id, ip },
      ),
    );
    await this.waiter.waitFor(position);
    return { message: 'Invite code disabled' };
  }

  @Delete(':id')
  async remove(
    @Param('id', { schema: inviteIdParamSchema }) id: string,
    @CurrentUser() admin: User,
    @ClientIp() ip: string,
  ): Promise<MessageResponse> {
    const invite = await findInviteById(this.database.db, id);
    if (!invite) throw new NotFoundException('Invite code not found');
    const { position } = await this.commandBus.execute(
      new InviteCommandMessage(
        { type: 'DeleteInvite', data: { code: invite.code, by: admin.id, now: new Date().toISOString() } },
        { actorId: admin.id, ip },
      ),
    );
    await this.waiter.waitFor(position);
    return { message: 'Invite code deleted' };
  }
}
