import { Command } from '@nestjs/cqrs';
import type { CreditsEvent } from './credits.events.js';

export class SetCreditsCommand extends Command<{ position: string | null; events: CreditsEvent[] }> {
  constructor(
    readonly input: { userId: string; credits: number; actorId: string; ip?: string; commandId?: string },
    readonly now: Date = new Date(),
  ) {
    super();
  }
}
