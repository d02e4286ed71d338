import { Module } from '@nestjs/common';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { ApplyPaymentHandler } from './apply-payment.handler.js';
import { CreditChanges } from './credit-changes.service.js';
import { DebitCreditsHandler } from './debit-credits.handler.js';
import { balanceProjection } from './read-models/balances/balance.projection.js';
import { RefundCreditsHandler } from './refund-credits.handler.js';
import { SetCreditsHandler } from './set-credits.handler.js';

/**
 * Users' credits: the credit stream per user decides every change (set by an admin, spent on links, given back, bought by card);
 * `credit_balances` shows them.
 */
@Module({
  providers: [
    CreditChanges,
    SetCreditsHandler,
    DebitCreditsHandler,
    RefundCreditsHandler,
    ApplyPaymentHandler,
    provideSubscription(balanceProjection),
  ],
})
export class CreditsModule {}
