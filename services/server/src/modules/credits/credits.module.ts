import { Module } from '@nestjs/common';
import { SetCreditsHandler } from './set-credits.handler.js';

/** Users' credits: the credit stream per user decides every change. */
@Module({ providers: [SetCreditsHandler] })
export class CreditsModule {}
