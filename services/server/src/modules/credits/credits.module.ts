import { Module } from '@nestjs/common';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { CreditsCommandHandler } from './credits.handler.js';
import { balanceProjection } from './read-models/balances/balance.projection.js';

/**
 * Users' credits: the credit stream per user decides every change (set by an admin, spent on links, given back, bought by card);
 * `credit_balances` shows them.
 */
@Module({
  providers: [CreditsCommandHandler, provideSubscription(balanceProjection)],
})
export class CreditsModule {}
