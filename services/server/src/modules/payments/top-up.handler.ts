import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TopupResponse } from '@seatlink/contracts';
import { type CardPayment, PAYMENT_GATEWAY, type PaymentGateway } from '../../infra/payments/payment-gateway.port.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { PaymentFulfilment } from './payment-fulfilment.service.js';
import { TopUpCommand } from './top-up.command.js';

/** The answer to the payer about a payment: credited when it succeeded, else what the browser must do next. */
export async function answerFor(
  payment: CardPayment,
  fulfilment: PaymentFulfilment,
  waiter: ReadModelWaiter,
  actor: { actorId?: string; ip?: string },
): Promise<TopupResponse> {
  const { fulfilled, balance, position } = await fulfilment.fulfil(payment, actor);
  // Read-your-writes: the user's next look at the balance shows the credits.
  const pending = !(await waiter.waitFor(position, ['CreditsPurchased']));
  return {
    success: fulfilled,
    payment_intent_status: payment.status,
    payment_intent_client_secret: payment.clientSecret,
    payment_intent_id: payment.id,
    ...(fulfilled && balance !== null ? { balance } : {}),
    ...(pending ? { pending: true as const } : {}),
  };
}

/**
 * Creates and confirms a PaymentIntent for the card (amount in pence, GBP, the payer in its metadata), keyed by the
 * request's Idempotency-Key so a double-clicked Pay charges once. A payment that succeeds is credited at once; one
 * that needs 3-D Secure is answered with its client secret for the browser. Card refusals are thrown as the gateway's
 * errors (CardDeclinedError, PaymentRequestError, PaymentProviderError) for the controller to answer.
 */
@CommandHandler(TopUpCommand)
export class TopUpHandler implements ICommandHandler<TopUpCommand> {
  constructor(
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly fulfilment: PaymentFulfilment,
    private readonly waiter: ReadModelWaiter,
  ) {}

  async execute({ input }: TopUpCommand): Promise<TopupResponse> {
    const payment = await this.gateway.payByCard({
      amountPence: input.amount * 100,
      paymentMethodId: input.paymentMethodId,
      email: input.email,
      billing: input.billing,
      metadata: { userId: input.userId, topupId: input.commandId },
      idempotencyKey: `topup-${input.userId}-${input.commandId}`,
    });
    return answerFor(payment, this.fulfilment, this.waiter, {
      actorId: input.userId,
      ...(input.ip ? { ip: input.ip } : {}),
    });
  }
}
