import { randomBytes, randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type CreateWebhookRequest,
  createWebhookRequestSchema,
  type RollWebhookSecretRequest,
  rollWebhookSecretRequestSchema,
  type UpdateWebhookRequest,
  updateWebhookRequestSchema,
  type User,
  WEBHOOK_DELIVERIES_LISTED,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveriesResponse,
  type WebhookDelivery,
  type WebhookDeliveryQueued,
  type WebhookEndpoint,
  type WebhookEndpointResponse,
  type WebhookSecretResponse,
  type WebhooksResponse,
  messageResponseSchema,
  webhookDeliveriesResponseSchema,
  webhookDeliveryQueuedSchema,
  webhookEndpointResponseSchema,
  webhookSecretResponseSchema,
  webhooksResponseSchema,
  webhookMoment,
} from '@seatlink/contracts';
import type { FastifyReply } from 'fastify';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { v4 as uuidv4 } from 'uuid';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ApiKeyScoped, ClientIp, CurrentUser, StepUp } from '../../infra/http/auth.decorators.js';
import { CommandId } from '../../infra/http/command-id.js';
import { NoIdempotencyKey } from '../../infra/http/idempotency.interceptor.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import {
  answerRateLimit,
  RateLimitedException,
  THROTTLE_MESSAGES,
  ThrottleService,
} from '../../infra/throttle/throttle.service.js';
import { TokenCipher } from '../../infra/wallet/token-cipher.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { webhookBody } from './webhook-events.js';
import { WebhookDeliveries } from './webhook-deliveries.service.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhooksCommandMessage } from './webhooks.command.js';
import type { WebhooksCommand } from './webhooks.decider.js';
import { webhookDeliveries, webhookEndpoints } from './webhooks.schema.js';
import { clock } from '../../shared/clock.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Characters of the secret the list shows, after its prefix. */
const SHOWN = 4;
const notFound = () => new DomainError(WEBHOOK_MESSAGES.notFound, 'WEBHOOK_NOT_FOUND', 404);

/**
 * The settings page's webhooks: endpoints added with the events they want (the signing secret shown once), changed,
 * turned off and on, deleted, their secret rolled; each endpoint's delivery log, a delivery sent again, a test event.
 * A signed-in session reaches these, and an API key with `webhooks:read` (the lists) or `webhooks:write` (the changes),
 * so that an integrator's system wires itself up; the key's scope stands for the fresh proof a session gives.
 */
@Controller('v1/me/webhooks')
export class WebhooksController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly waiter: ReadModelWaiter,
    @Inject(DATABASE) private readonly database: Database,
    private readonly cipher: TokenCipher,
    private readonly sender: WebhookSender,
    private readonly deliveries: WebhookDeliveries,
    private readonly throttle: ThrottleService,
  ) {}

  @ApiKeyScoped('webhooks:read')
  @Answers(webhooksResponseSchema)
  @Get()
  async list(@CurrentUser() user: User): Promise<WebhooksResponse> {
    const rows = await this.database.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.userId, user.id), isNull(webhookEndpoints.deletedAt)))
      .orderBy(desc(webhookEndpoints.createdAt));
    return { webhooks: rows.map(toEndpoint) };
  }

  /**
   * A fresh proof first (a stolen session must not point the account's events elsewhere); no Idempotency-Key (a kept
   * answer would keep the secret in clear).
   */
  @ApiKeyScoped('webhooks:write')
  @Answers(webhookSecretResponseSchema)
  @Post()
  @HttpCode(201)
  @StepUp()
  @NoIdempotencyKey()
  async create(
    @Body({ schema: createWebhookRequestSchema }) body: CreateWebhookRequest,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<WebhookSecretResponse> {
    const url = this.checkedUrl(body.url);
    const secret = newSecret();
    const endpointId = randomUUID();
    const now = clock.now().toISOString();
    const events = createWebhookRequestSchema.parse(body).events;
    await this.send(
      user,
      {
        type: 'CreateWebhookEndpoint',
        data: { userId: user.id, endpointId, url, events, ...this.sealed(secret), now },
      },
      ip,
      commandId,
    );
    const webhook: WebhookEndpoint = {
      id: endpointId,
      url,
      events,
      enabled: true,
      disabled_reason: null,
      secret_prefix: this.prefixOf(secret),
      previous_secret_until: null,
      created_at: now,
    };
    // From the command, not the read model: the secret is answered whatever the read model has caught up with.
    return { message: WEBHOOK_MESSAGES.created, webhook, secret };
  }

  /** A fresh proof first: a stolen session must not point the account's events elsewhere, nor stop them. */
  @ApiKeyScoped('webhooks:write')
  @Answers(webhookEndpointResponseSchema)
  @Patch(':id')
  @HttpCode(200)
  @StepUp()
  async update(
    @Param('id') id: string,
    @Body({ schema: updateWebhookRequestSchema }) body: UpdateWebhookRequest,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<WebhookEndpointResponse> {
    const endpointId = this.checkedId(id);
    const parsed = updateWebhookRequestSchema.parse(body);
    const url = parsed.url === undefined ? undefined : this.checkedUrl(parsed.url);
    const result = await this.send(
      user,
      {
        type: 'UpdateWebhookEndpoint',
        data: {
          userId: user.id,
          endpointId,
          ...(url !== undefined ? { url } : {}),
          ...(parsed.events ? { events: parsed.events } : {}),
          ...(parsed.enabled !== undefined ? { enabled: parsed.enabled } : {}),
          now: clock.now().toISOString(),
        },
      },
      ip,
      commandId,
    );
    if (result.events.some((e) => e.type === 'WebhookEndpointEnabled')) {
      // What waited goes now (its failures start again from nothing: the fan-out clears them with the event).
      await this.deliveries.sweep(endpointId).catch(() => 0);
    }
    const message =
      parsed.enabled === undefined || parsed.url || parsed.events
        ? WEBHOOK_MESSAGES.updated
        : parsed.enabled
          ? WEBHOOK_MESSAGES.enabled
          : WEBHOOK_MESSAGES.disabled;
    return { message, webhook: await this.endpoint(user, endpointId) };
  }

  @ApiKeyScoped('webhooks:write')
  @Answers(messageResponseSchema)
  @Delete(':id')
  @HttpCode(200)
  @StepUp()
  async remove(
    @Param('id') id: string,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<{ message: string }> {
    const endpointId = this.checkedId(id);
    await this.send(
      user,
      { type: 'DeleteWebhookEndpoint', data: { userId: user.id, endpointId, now: clock.now().toISOString() } },
      ip,
      commandId,
    );
    return { message: WEBHOOK_MESSAGES.deleted };
  }

  /**
   * A new signing secret, shown once. The old one signs nothing from now on, or, with `grace_seconds`, still signs
   * beside the new one for that long (docs/reference.md "Webhooks").
   */
  @ApiKeyScoped('webhooks:write')
  @Answers(webhookSecretResponseSchema)
  @Post(':id/secret')
  @HttpCode(200)
  @StepUp()
  @NoIdempotencyKey()
  async roll(
    @Param('id') id: string,
    @Body({ schema: rollWebhookSecretRequestSchema }) body: RollWebhookSecretRequest,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<WebhookSecretResponse> {
    const endpointId = this.checkedId(id);
    const graceSeconds = body?.grace_seconds ?? 0;
    // Found before the secret changes: an answer that loses the new secret would leave deliveries none can verify.
    const before = await this.endpoint(user, endpointId);
    const secret = newSecret();
    const result = await this.send(
      user,
      {
        type: 'RollWebhookSecret',
        data: { userId: user.id, endpointId, ...this.sealed(secret), graceSeconds, now: clock.now().toISOString() },
      },
      ip,
      commandId,
    );
    const rolled = result.events.find((e) => e.type === 'WebhookSecretRolled');
    const until = (rolled?.data as { previousSecretUntil?: string | null } | undefined)?.previousSecretUntil ?? null;
    // The endpoint as listed, with its new secret's prefix and grace (whatever the read model has caught up with).
    const webhook = { ...before, secret_prefix: this.prefixOf(secret), previous_secret_until: until };
    const message = until
      ? WEBHOOK_MESSAGES.secretRolledGrace.replace('{until}', webhookMoment(until))
      : WEBHOOK_MESSAGES.secretRolled;
    return { message, webhook, secret };
  }

  @ApiKeyScoped('webhooks:read')
  @Answers(webhookDeliveriesResponseSchema)
  @Get(':id/deliveries')
  async deliveriesOf(@Param('id') id: string, @CurrentUser() user: User): Promise<WebhookDeliveriesResponse> {
    const endpoint = await this.endpoint(user, this.checkedId(id));
    const rows = await this.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.seq))
      .limit(WEBHOOK_DELIVERIES_LISTED);
    return { deliveries: rows.map(toDelivery) };
  }

  /** The same event again (the same id and body, a fresh signature), at once and once. */
  @ApiKeyScoped('webhooks:write')
  @Answers(webhookDeliveryQueuedSchema)
  @Post(':id/deliveries/:deliveryId/resend')
  @HttpCode(202)
  async resend(
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @CurrentUser() user: User,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookDeliveryQueued> {
    const endpoint = await this.endpoint(user, this.checkedId(id));
    const [original] = UUID.test(deliveryId)
      ? await this.database.db
          .select()
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)))
      : [];
    if (!original) throw new DomainError(WEBHOOK_MESSAGES.deliveryNotFound, 'WEBHOOK_DELIVERY_NOT_FOUND', 404);
    await this.countManual(endpoint.id, reply);
    const row = await this.deliveries.deliverNow({
      endpointId: endpoint.id,
      userId: user.id,
      eventId: original.eventId,
      type: original.type,
      payload: original.payload,
    });
    return { message: WEBHOOK_MESSAGES.resent, delivery: toDelivery(row) };
  }

  /** A `webhook.test` event to the endpoint, at once and once: to see it arrive and check its signature. */
  @ApiKeyScoped('webhooks:write')
  @Answers(webhookDeliveryQueuedSchema)
  @Post(':id/test')
  @HttpCode(202)
  async test(
    @Param('id') id: string,
    @CurrentUser() user: User,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookDeliveryQueued> {
    const endpoint = await this.endpoint(user, this.checkedId(id));
    await this.countManual(endpoint.id, reply);
    const eventId = uuidv4();
    const payload = webhookBody(eventId, WEBHOOK_TEST_EVENT, clock.now().toISOString(), {
      endpoint_id: endpoint.id,
      message: 'A test event from Seatlink: your endpoint receives and can verify deliveries.',
    });
    const row = await this.deliveries.deliverNow({
      endpointId: endpoint.id,
      userId: user.id,
      eventId,
      type: WEBHOOK_TEST_EVENT,
      payload,
    });
    return { message: WEBHOOK_MESSAGES.testSent, delivery: toDelivery(row) };
  }

  /**
   * Counts a delivery asked for by hand (a test event, a resend) against the endpoint's count of them
   * (THROTTLE_WEBHOOK_ENDPOINT a minute, whoever asks: sessions and API keys alike), before it is queued; answered in
   * the RateLimit-* headers, and past it 429 with Retry-After (docs/reference.md "Limits and constants").
   */
  private async countManual(endpointId: string, reply: FastifyReply) {
    try {
      answerRateLimit(
        reply,
        await this.throttle.consumeMeasured('webhook-endpoint', endpointId, THROTTLE_MESSAGES.webhookEndpoint),
      );
    } catch (err) {
      if (err instanceof RateLimitedException && err.rateLimit) answerRateLimit(reply, err.rateLimit, true);
      throw err;
    }
  }

  private async send(user: User, command: WebhooksCommand, ip: string, commandId: string) {
    const result = await this.commandBus.execute(
      new WebhooksCommandMessage(command, { actorId: user.id, ip, commandId }),
    );
    // The list shows it as soon as this answer arrives.
    await this.waiter.pending(result);
    return result;
  }

  private sealed(secret: string) {
    return { secretSealed: this.cipher.encrypt(secret), secretPrefix: this.prefixOf(secret) };
  }

  private prefixOf(secret: string) {
    return secret.slice(0, WEBHOOK_SECRET_PREFIX.length + SHOWN);
  }

  private checkedId(id: string): string {
    if (!UUID.test(id)) throw notFound();
    return id;
  }

  /** The address as it will be called; refused when it is not https (bar the allow-list) or not public. */
  private checkedUrl(raw: string): string {
    const url = new URL(raw);
    const refused = this.sender.refusal(url);
    if (refused) throw new DomainError(WEBHOOK_MESSAGES[refused], 'WEBHOOK_URL_REFUSED', 400);
    return url.toString();
  }

  private async endpoint(user: User, endpointId: string): Promise<WebhookEndpoint> {
    const [row] = await this.database.db
      .select()
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.endpointId, endpointId),
          eq(webhookEndpoints.userId, user.id),
          isNull(webhookEndpoints.deletedAt),
        ),
      );
    if (!row) throw notFound();
    return toEndpoint(row);
  }
}

function newSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

function toEndpoint(row: typeof webhookEndpoints.$inferSelect): WebhookEndpoint {
  return {
    id: row.endpointId,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    secret_prefix: row.secretPrefix,
    // Only while it lasts: a grace that is over is no grace.
    previous_secret_until:
      row.previousSecretUntil && row.previousSecretUntil.getTime() > clock.now().getTime()
        ? row.previousSecretUntil.toISOString()
        : null,
    created_at: row.createdAt.toISOString(),
  };
}

function toDelivery(row: typeof webhookDeliveries.$inferSelect): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.eventId,
    type: row.type as WebhookDelivery['type'],
    status: row.status,
    attempts: row.attempts,
    last_status: row.lastStatus,
    last_latency_ms: row.lastLatencyMs,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    next_attempt_at: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    payload: row.payload,
  };
}
