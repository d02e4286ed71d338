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
import { CommandBus } from '@nestjs/cqrs';
import {
  PAYMENT_MESSAGES,
  paymentIntentIdParamSchema,
  type PaymentsConfig,
  testAuthenticationSchema,
  type TopupCommandInput,
  type TopupResponse,
  topupRequestSchema,
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
import { ClientIp, CurrentUser } from '../identity/auth.decorators.js';
import { CommandId } from '../../infra/http/command-id.js';
import { PaymentFulfilment } from './payment-fulfilment.service.js';
import { TopUpCommand } from './top-up.command.js';
import { answerFor } from './top-up.handler.js';

/**
 * The gateway's refusals as the browser reads them (SPEC.md §8: the provider's own message for card errors and
 * invalid requests): a declined card is 402 with Stripe's `card_error` shape, an unknown payment method 400, a provider
 * that did not answer 502 (nothing known to be charged; a retry with the same Idempotency-Key charges at most once).
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

/** Card top-ups: one credit per pound, GBP (SPEC.md §3, §4, §7). */
@Controller('v1')
export class PaymentsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly fulfilment: PaymentFulfilment,
    private readonly waiter: ReadModelWaiter,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  @Get('payments/config')
  config(): PaymentsConfig {
    return { mode: this.gateway.mode, publishable_key: this.gateway.publishableKey };
  }

  /** Charges the card and, when the payment succeeded, credits the balance before answering. */
  @Post('topup')
  @HttpCode(200)
  @Throttled('top-up')
  async topup(
    @Body({ schema: topupRequestSchema }) body: TopupCommandInput,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<TopupResponse> {
    try {
      return await this.commandBus.execute(
        new TopUpCommand({
          userId: user.id,
          amount: body.amount,
          paymentMethodId: body.payment_id,
          email: body.email,
          billing: body.billing_info,
          ip,
          commandId,
        }),
      );
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
  async complete(
    @Param('id', { schema: paymentIntentIdParamSchema }) paymentIntentId: string,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
  ): Promise<TopupResponse> {
    const payment = await this.ownPayment(paymentIntentId, user);
    return answerFor(payment, this.fulfilment, this.waiter, { actorId: user.id, ip });
  }

  /** The test gateway's 3-D Secure challenge, approved or failed by the payer (test mode only). */
  @Post('payments/test/intents/:id/authenticate')
  @HttpCode(200)
  async authenticate(
    @Param('id', { schema: paymentIntentIdParamSchema }) paymentIntentId: string,
    @Body({ schema: testAuthenticationSchema }) body: z.output<typeof testAuthenticationSchema>,
    @CurrentUser() user: User,
  ): Promise<Pick<TopupResponse, 'payment_intent_id' | 'payment_intent_status'>> {
    if (!(this.gateway instanceof TestPaymentGateway)) throw new NotFoundException('Not found');
    await this.ownPayment(paymentIntentId, user);
    try {
      const payment = this.gateway.authenticate(paymentIntentId, body.client_secret, body.outcome);
      return { payment_intent_id: payment.id, payment_intent_status: payment.status };
    } catch (err) {
      throw paymentError(err);
    }
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
