import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CURRENCY } from '@seatlink/contracts';
import type { CardPayment } from '../../infra/payments/payment-gateway.port.js';
import { balanceAfter, CreditsCommandMessage, type CreditsCommand } from '../credits/index.js';
import { clock } from '../../shared/clock.js';

/** The actor of what the payment provider reports (refunds, disputes) in the event metadata and the user's history. */
export const PAYMENT_PROVIDER_ACTOR = 'payment-provider';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type PaymentCommand = Extract<CreditsCommand, { type: 'PurchaseCredits' | 'ReverseCredits' | 'RecordDispute' }>;
/** One of the payment commands of the credit stream, without its time (given when it is sent). */
type PaymentChange = PaymentCommand extends infer C
  ? C extends { type: infer T; data: infer D }
    ? { type: T; data: Omit<D, 'now'> }
    : never
  : never;

export interface Fulfilment {
  /** Whether the payment's credits are on the balance (now or before). */
  fulfilled: boolean;
  balance: number | null;
  position: string | null;
}

/**
 * Turns confirmed card payments into credits, following Stripe's guidance: fulfil from what the provider says of the
 * payment (its status, amount and currency, the payer in its metadata), never from what the browser says. The
 * synchronous answer, the browser's return from 3-D Secure and every webhook may all report one payment, in any order,
 * any number of times: the credit stream grants it once. Each report is a command on the payer's credit stream whose
 * id is derived from the provider's own ids, so the same report changes the credits once however often it comes. The
 * callers ask the provider how the payment stands first (this asks it nothing).
 */
@Injectable()
export class PaymentFulfilment {
  private readonly logger = new Logger('Payments');

  constructor(private readonly commandBus: CommandBus) {}

  /** The payer a payment is for (from its metadata), or null when it is not one of ours. */
  static payerOf(payment: Pick<CardPayment, 'metadata'>): string | null {
    const userId = payment.metadata.userId;
    return typeof userId === 'string' && UUID.test(userId) ? userId : null;
  }

  /** Grants the credits of a payment that succeeded (one per whole pound received); anything else grants nothing. */
  async fulfil(payment: CardPayment, actor: { actorId?: string; ip?: string } = {}): Promise<Fulfilment> {
    const userId = PaymentFulfilment.payerOf(payment);
    if (payment.status !== 'succeeded' || !userId) return { fulfilled: false, balance: null, position: null };
    const credits = Math.floor(payment.amountPence / 100);
    if (payment.currency !== CURRENCY || credits < 1) {
      this.logger.warn(`payment ${payment.id} (${payment.amountPence} ${payment.currency}) buys no credits`);
      return { fulfilled: false, balance: null, position: null };
    }
    const result = await this.apply(
      {
        type: 'PurchaseCredits',
        data: { userId, amount: credits, amountPence: payment.amountPence, paymentIntentId: payment.id },
      },
      `payment:${payment.id}:purchase`,
      actor.actorId ?? userId,
      actor.ip,
    );
    return { fulfilled: true, balance: balanceAfter(result), position: result.position };
  }

  /**
   * Money that went back to the card (the payment as the provider has it now): the credits it stands for in all so far
   * (Stripe reports refunds cumulatively), taken back once each. The payment is fulfilled first, should its refund be
   * reported before its success.
   */
  async refunded(payment: CardPayment, amountRefundedPence: number): Promise<void> {
    const { fulfilled } = await this.fulfil(payment, { actorId: PAYMENT_PROVIDER_ACTOR });
    const userId = PaymentFulfilment.payerOf(payment);
    if (!fulfilled || !userId) return;
    await this.apply(
      {
        type: 'ReverseCredits',
        data: {
          userId,
          totalCredits: Math.ceil(amountRefundedPence / 100),
          reason: 'refund',
          reference: `refund:${amountRefundedPence}`,
          paymentIntentId: payment.id,
        },
      },
      `payment:${payment.id}:refunded:${amountRefundedPence}`,
      PAYMENT_PROVIDER_ACTOR,
    );
  }

  /** A dispute of the payment opened (recorded) or closed: lost, the payment's credits are taken back. */
  async disputed(
    payment: CardPayment,
    dispute: { id: string; amountPence: number; reason: string; status: string },
    phase: 'opened' | 'closed',
  ): Promise<void> {
    const { fulfilled } = await this.fulfil(payment, { actorId: PAYMENT_PROVIDER_ACTOR });
    const userId = PaymentFulfilment.payerOf(payment);
    if (!fulfilled || !userId) return;
    if (phase === 'opened') {
      await this.apply(
        {
          type: 'RecordDispute',
          data: {
            userId,
            paymentIntentId: payment.id,
            disputeId: dispute.id,
            amountPence: dispute.amountPence,
            reason: dispute.reason,
          },
        },
        `dispute:${dispute.id}:opened`,
        PAYMENT_PROVIDER_ACTOR,
      );
    } else if (dispute.status === 'lost') {
      await this.apply(
        {
          type: 'ReverseCredits',
          data: {
            userId,
            totalCredits: Math.floor(payment.amountPence / 100),
            reason: 'dispute_lost',
            reference: dispute.id,
            paymentIntentId: payment.id,
          },
        },
        `dispute:${dispute.id}:lost`,
        PAYMENT_PROVIDER_ACTOR,
      );
    }
  }

  /** `actorId`: who caused it, the payer (a top-up) or the payment provider (a webhook). */
  private apply(change: PaymentChange, commandId: string, actorId: string, ip?: string) {
    const command = { type: change.type, data: { ...change.data, now: clock.now().toISOString() } } as CreditsCommand;
    return this.commandBus.execute(new CreditsCommandMessage(command, { actorId, ip, commandId }));
  }
}
