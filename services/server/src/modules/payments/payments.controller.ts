import {
  BadGatewayException,
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
} from '@nestjs/common';
import {
  PAYMENT_MESSAGES,
  paymentIntentIdParamSchema,
  type PaymentsConfig,
  paymentsConfigSchema,
  testAuthenticationSchema,
  type TestAuthenticationResponse,
  testAuthenticationResponseSchema,
  type TopupCommandInput,
  type TopupResponse,
  topupRequestSchema,
  topupResponseSchema,
  type User,
} from '@seatlink/contracts';
import type { z } from 'zod';
import {
  CardDeclinedError,
  type CardPayment,
  PAYMENT_GATEWAY,
  type PaymentGateway,
  PaymentProviderError,
  PaymentRequestError,
} from '../../infra/payments/payment-gateway.port.js';
import { TestPaymentGateway } from '../../infra/payments/test-payment-gateway.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { Throttled } from '../../infra/throttle/throttled.guard.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { ClientIp, CurrentUser } from '../../infra/http/auth.decorators.js';
import { CommandId } from '../../infra/http/command-id.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { PaymentFulfilment } from './payment-fulfilment.service.js';

/**
 * The gateway's refusals as the browser reads them (docs/reference.md "Payment messages": the provider's own message
 * for card errors and invalid requests): a declined card is 402 with Stripe's `card_error` shape, an unknown payment
 * method 400, a provider that did not answer 502 (nothing known to be charged; a retry with the same Idempotency-Key
 * charges at most once).
 */
export function paymentError(err: unknown): unknown {
  if (err instanceof CardDeclinedError) {
    return new DomainError(err.message, err.code, 402, {
      type: 'card_error',
      ...(err.declineCode ? { decline_code: err.declineCode } : {}),
      ...(err.paymentIntentId ? { payment_intent_id: err.paymentIntentId } : {}),
    });
  }
  if (err instanceof PaymentRequestError) {
    return new DomainError(err.message, err.code, 400, { type: 'invalid_request_error' });
  }
  if (err instanceof PaymentProviderError) {
    return new BadGatewayException({ message: PAYMENT_MESSAGES.processing, code: 'payment_provider_error' });
  }
  return err;
}

/**
 * Card top-ups: one credit per pound, GBP (docs/reference.md "Request and answer bodies", "Card payment states",
 * "API calls").
 */
@Controller('v1')
export class PaymentsController {
  constructor(
    private readonly fulfilment: PaymentFulfilment,
    private readonly waiter: ReadModelWaiter,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  @Get('payments/config')
  @Answers(paymentsConfigSchema)
  config(): PaymentsConfig {
    return { mode: this.gateway.mode, publishable_key: this.gateway.publishableKey };
  }

  /**
   * Charges the card and, when the payment succeeded, credits the balance before answering. The PaymentIntent (amount
   * in pence, GBP, the payer in its metadata) is keyed by the request's Idempotency-Key, so a double-clicked Pay
   * charges once; one that needs 3-D Secure is answered with its client secret for the browser. Should the credits not
   * be written after the charge, the provider's webhook (or the browser's return) writes them: both fulfil the same way.
   */
  @Post('topup')
  @HttpCode(200)
  @Throttled('top-up')
  @Answers(topupResponseSchema)
  async topup(
    @Body({ schema: topupRequestSchema }) body: TopupCommandInput,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<TopupResponse> {
    try {
      const payment = await this.gateway.payByCard({
        amountPence: body.amount * 100,
        paymentMethodId: body.payment_id,
        email: body.email,
        billing: body.billing_info,
        metadata: { userId: user.id, topupId: commandId },
        idempotencyKey: `topup-${user.id}-${commandId}`,
      });
      return await this.answer(payment, { actorId: user.id, ip });
    } catch (err) {
      throw paymentError(err);
    }
  }

  /**
   * After the browser confirmed a payment (3-D Secure): asks the provider how it stands, never the browser, and
   * credits it when it succeeded. Only the payer's own payments.
   */
  @Post('topup/:id/complete')
  @HttpCode(200)
  @Throttled('top-up')
  @Answers(topupResponseSchema)
  async complete(
    @Param('id', { schema: paymentIntentIdParamSchema }) paymentIntentId: string,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
  ): Promise<TopupResponse> {
    const payment = await this.ownPayment(paymentIntentId, user);
    return this.answer(payment, { actorId: user.id, ip });
  }

  /** The test gateway's 3-D Secure challenge, approved or failed by the payer (test mode only). */
  @Post('payments/test/intents/:id/authenticate')
  @HttpCode(200)
  @Answers(testAuthenticationResponseSchema)
  async authenticate(
    @Param('id', { schema: paymentIntentIdParamSchema }) paymentIntentId: string,
    @Body({ schema: testAuthenticationSchema }) body: z.output<typeof testAuthenticationSchema>,
    @CurrentUser() user: User,
  ): Promise<TestAuthenticationResponse> {
    if (!(this.gateway instanceof TestPaymentGateway)) throw new NotFoundException('Not found');
    await this.ownPayment(paymentIntentId, user);
    try {
      const payment = this.gateway.authenticate(paymentIntentId, body.client_secret, body.outcome);
      return { payment_intent_id: payment.id, payment_intent_status: payment.status };
    } catch (err) {
      throw paymentError(err);
    }
  }

  /** The answer to the payer about a payment: credited when it succeeded, else what the browser must do next. */
  private async answer(payment: CardPayment, actor: { actorId: string; ip: string }): Promise<TopupResponse> {
    const { fulfilled, balance, position } = await this.fulfilment.fulfil(payment, actor);
    // Read-your-writes: the user's next look at the balance shows the credits.
    const pending = !(await this.waiter.waitFor(position, ['CreditsPurchased']));
    return {
      success: fulfilled,
      payment_intent_status: payment.status,
      payment_intent_client_secret: payment.clientSecret,
      payment_intent_id: payment.id,
      ...(fulfilled && balance !== null ? { balance } : {}),
      ...(pending ? { pending: true as const } : {}),
    };
  }

  private async ownPayment(paymentIntentId: string, user: User): Promise<CardPayment> {
    let payment: CardPayment;
    try {
      payment = await this.gateway.retrieve(paymentIntentId);
    } catch (err) {
      if (err instanceof PaymentRequestError) throw new NotFoundException('Payment not found');
      throw paymentError(err);
    }
    if (PaymentFulfilment.payerOf(payment) !== user.id) throw new NotFoundException('Payment not found');
    return payment;
  }
}
