import { randomBytes, randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  type ApiKey,
  type ApiKeysResponse,
  apiKeysResponseSchema,
  type CreateApiKeyRequest,
  createApiKeyRequestSchema,
  type CreatedApiKeyResponse,
  createdApiKeyResponseSchema,
  type MessageResponse,
  messageResponseSchema,
  type User,
} from '@seatlink/contracts';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ClientIp, CurrentUser, StepUp } from '../../infra/http/auth.decorators.js';
import { NoIdempotencyKey } from '../../infra/http/idempotency.interceptor.js';
import { CommandId } from '../../infra/http/command-id.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { apiKeyHash, ApiKeysGate } from './api-key-gate.js';
import { ApiKeysCommandMessage } from './api-keys.command.js';
import { apiKeys, apiKeyUses } from './api-keys.schema.js';
import { clock } from '../../shared/clock.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Characters of the key the list shows, after its prefix. */
const SHOWN = 4;

/**
 * The settings page's API keys: made with a name and scopes (the key shown once), listed with when each was last
 * used, revoked. Only a signed-in session reaches these (no scope opens them to a key: a key cannot make keys).
 */
@Controller('v1/me/api-keys')
export class ApiKeysController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly waiter: ReadModelWaiter,
    @Inject(DATABASE) private readonly database: Database,
    private readonly gate: ApiKeysGate,
  ) {}

  @Get()
  @Answers(apiKeysResponseSchema)
  async list(@CurrentUser() user: User): Promise<ApiKeysResponse> {
    const rows = await this.database.db
      .select({ key: apiKeys, lastUsedAt: apiKeyUses.lastUsedAt })
      .from(apiKeys)
      .leftJoin(apiKeyUses, eq(apiKeyUses.keyId, apiKeys.keyId))
      .where(and(eq(apiKeys.userId, user.id), isNull(apiKeys.revokedAt), isNull(apiKeyUses.revokedAt)))
      .orderBy(desc(apiKeys.createdAt));
    return { api_keys: rows.map((r) => toApiKey(r.key, r.lastUsedAt)) };
  }

  /** A fresh proof first (a stolen session must not mint a key that outlives it); no Idempotency-Key (a kept answer
   * would keep the key in clear). */
  @Post()
  @HttpCode(201)
  @StepUp()
  @NoIdempotencyKey()
  @Answers(createdApiKeyResponseSchema)
  async create(
    @Body({ schema: createApiKeyRequestSchema }) body: CreateApiKeyRequest,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<CreatedApiKeyResponse> {
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const data = {
      userId: user.id,
      keyId: randomUUID(),
      name: body.name,
      scopes: createApiKeyRequestSchema.parse(body).scopes,
      keyHash: apiKeyHash(key),
      prefix: key.slice(0, API_KEY_PREFIX.length + SHOWN),
      now: clock.now().toISOString(),
    };
    const result = await this.commandBus.execute(
      new ApiKeysCommandMessage({ type: 'CreateApiKey', data }, { actorId: user.id, ip, commandId }),
    );
    // The key works as soon as this answer arrives: the read model the calls are checked against has it.
    await this.waiter.pending(result);
    const { now, keyHash: _hash, userId: _user, keyId, ...shown } = data;
    return {
      message: API_KEY_MESSAGES.created,
      key,
      api_key: { id: keyId, ...shown, created_at: now, last_used_at: null },
    };
  }

  /** Revokes a key: from this answer on, no call is made with it. */
  @Delete(':id')
  @HttpCode(200)
  @Answers(messageResponseSchema)
  async revoke(
    @Param('id') id: string,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<MessageResponse> {
    if (!UUID.test(id)) throw new DomainError(API_KEY_MESSAGES.notFound, 'API_KEY_NOT_FOUND', 404);
    const result = await this.commandBus.execute(
      new ApiKeysCommandMessage(
        { type: 'RevokeApiKey', data: { userId: user.id, keyId: id, now: clock.now().toISOString() } },
        { actorId: user.id, ip, commandId },
      ),
    );
    // Stopped now, whatever the read model has caught up with.
    await this.gate.stop(id);
    await this.waiter.pending(result);
    return { message: API_KEY_MESSAGES.revoked };
  }
}

function toApiKey(row: typeof apiKeys.$inferSelect, lastUsedAt: Date | null): ApiKey {
  return {
    id: row.keyId,
    name: row.name,
    scopes: row.scopes,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: lastUsedAt?.toISOString() ?? null,
  };
}
