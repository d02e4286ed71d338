import { Command } from '@nestjs/cqrs';
import type { WaitlistJoined } from './waitlist.events.js';

/** Register Interest: a visitor without an invite code asks to be told when registrations open. */
export class JoinWaitlistCommand extends Command<{ position: string | null; events: WaitlistJoined[] }> {
  constructor(
    readonly input: { email: string; firstName: string; lastName: string; ip?: string; commandId: string },
    readonly now: Date = new Date(),
  ) {
    super();
  }
}
