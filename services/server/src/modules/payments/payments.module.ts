import { Module } from '@nestjs/common';
import { PaymentFulfilment } from './payment-fulfilment.service.js';
import { PaymentWebhooksController } from './payment-webhooks.controller.js';
import { PaymentsController } from './payments.controller.js';
import { TopUpHandler } from './top-up.handler.js';

/**
 * Card top-ups: the top-up call, the return from 3-D Secure and the provider's webhooks all fulfil through
 * PaymentFulfilment, which grants each payment's credits once on the payer's credit stream (CreditsModule).
 */
/** Where the payment provider sends its webhooks (its raw body is kept for the signature). */
export const PAYMENT_WEBHOOK_PATH = '/v1/payments/webhook';

@Module({
  controllers: [PaymentsController, PaymentWebhooksController],
  providers: [PaymentFulfilment, TopUpHandler],
})
export class PaymentsModule {}
