import { Module } from '@nestjs/common';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { WaitlistCommandHandler } from './waitlist.handler.js';
import { waitlistProjection } from './read-models/waitlist/waitlist.projection.js';
import { WaitlistController } from './waitlist.controller.js';

/** Register Interest: the waitlist call, its command and its read model. */
@Module({
  controllers: [WaitlistController],
  providers: [WaitlistCommandHandler, provideSubscription(waitlistProjection)],
})
export class WaitlistModule {}
