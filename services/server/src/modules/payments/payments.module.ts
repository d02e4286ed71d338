import { Module } from '@nestjs/common';
import { PaymentFulfilment } from './payment-fulfilment.service.js';
import { PaymentWebhooksController } from './payment-webhooks.controller.js';
import { PaymentsController } from './payments.controller.js';

/** Where the payment provider sends its webhooks (its raw body is kept for the signature). */
export const PAYMENT_WEBHOOK_PATH = '/v1/payments/webhook';

/**
 * Card top-ups: the top-up call, the return from 3-D Secure and the provider's webhooks ask the provider how a payment
 * stands, then fulfil through PaymentFulfilment, which grants each payment's credits once on the payer's credit stream
 * (CreditsModule).
 */
@Module({
  controllers: [PaymentsController, PaymentWebhooksController],
  providers: [PaymentFulfilment],
})
export class PaymentsModule {}
