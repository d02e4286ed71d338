import { BadRequestException, Controller, Headers, HttpCode, Inject, Logger, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { type PaymentWebhookResponse, paymentWebhookResponseSchema } from '@seatlink/contracts';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { NoIdempotencyKey } from '../../infra/http/idempotency.interceptor.js';
import { rawBodyOf } from '../../infra/http/raw-body.js';
import {
  PAYMENT_GATEWAY,
  type CardPayment,
  type PaymentGateway,
  PaymentRequestError,
  WebhookSignatureError,
} from '../../infra/payments/payment-gateway.port.js';
import { Public } from '../../infra/http/auth.decorators.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { PaymentFulfilment, PAYMENT_PROVIDER_ACTOR } from './payment-fulfilment.service.js';
import { paymentWebhookEvents } from './payments.schema.js';

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/**
 * The payment provider's webhooks (Stripe's, or the test gateway's signed the same way). The signature is checked on
 * the raw body (tolerance 300 s): forged, altered or stale → 400, nothing written. An event handled before is answered
 * at once; every change it makes is keyed by the provider's ids, so one delivered twice at the same moment changes
 * the credits once too. A failure of ours (the database away) answers 5xx, and the provider sends it again later.
 */
@Controller('v1/payments')
export class PaymentWebhooksController {
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly fulfilment: PaymentFulfilment,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  @Post('webhook')
  @Public()
  @NoIdempotencyKey()
  @HttpCode(200)
  @Answers(paymentWebhookResponseSchema)
  async webhook(
    @Req() request: FastifyRequest,
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<PaymentWebhookResponse> {
    const rawBody = rawBodyOf(request);
    if (rawBody === undefined) throw new BadRequestException('A webhook has a JSON body');
    let event: Stripe.Event;
    try {
      event = this.gateway.verifyWebhook(rawBody, signature);
    } catch (err) {
      if (err instanceof WebhookSignatureError) throw new BadRequestException(err.message);
      throw err;
    }
    const { db } = this.database;
    const [seen] = await db
      .select({ eventId: paymentWebhookEvents.eventId })
      .from(paymentWebhookEvents)
      .where(eq(paymentWebhookEvents.eventId, event.id));
    if (seen) return { received: true, duplicate: true };
    try {
      await this.handle(event);
    } catch (err) {
      // A payment the provider no longer knows of (the test gateway restarted): nothing a redelivery would change.
      if (!(err instanceof PaymentRequestError)) throw err;
      this.logger.warn(`webhook ${event.id} (${event.type}) left alone: ${err.message}`);
    }
    await db.insert(paymentWebhookEvents).values({ eventId: event.id, type: event.type }).onConflictDoNothing();
    return { received: true };
  }

  private async handle(event: Stripe.Event): Promise<void> {
    switch (event.type) {
      case 'payment_intent.succeeded': {
        const intent = event.data.object;
        await this.fulfilment.fulfil(
          {
            id: intent.id,
            status: intent.status as CardPayment['status'],
            clientSecret: null,
            amountPence: intent.amount_received,
            currency: intent.currency,
            metadata: { ...intent.metadata },
          },
          { actorId: PAYMENT_PROVIDER_ACTOR },
        );
        return;
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const paymentIntentId = idOf(charge.payment_intent);
        if (paymentIntentId) {
          await this.fulfilment.refunded(await this.gateway.retrieve(paymentIntentId), charge.amount_refunded);
        }
        return;
      }
      case 'charge.dispute.created':
      case 'charge.dispute.closed': {
        const dispute = event.data.object;
        const paymentIntentId = idOf(dispute.payment_intent);
        if (!paymentIntentId) return;
        await this.fulfilment.disputed(
          await this.gateway.retrieve(paymentIntentId),
          {
            id: dispute.id,
            amountPence: dispute.amount,
            reason: dispute.reason,
            status: dispute.status,
          },
          event.type === 'charge.dispute.created' ? 'opened' : 'closed',
        );
        return;
      }
      default:
        // Other events (a failed attempt, a payment needing action) change no credits.
        return;
    }
  }
}
