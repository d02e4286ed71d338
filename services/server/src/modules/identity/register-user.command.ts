import { Command } from '@nestjs/cqrs';
import type { UserEvent } from './user.events.js';

/** Registers a user: a visitor with an invite code, or an admin's new user (an invite use, the e-mail, the user). */
export class RegisterUserCommand extends Command<{ userId: string; position: string | null; events: UserEvent[] }> {
  constructor(
    readonly input: {
      email: string;
      password: string;
      firstName: string;
      lastName: string;
      isAdmin: boolean;
      emailVerified: boolean;
      /** Registration by a visitor consumes one use of this code. */
      inviteCode?: string;
      /** Same id, same user: repeating a registration appends nothing. Derived from `commandId` when absent. */
      userId?: string;
      /** The request's command id (from its Idempotency-Key): a retried registration is the same registration. */
      commandId?: string;
      actorId?: string;
      ip?: string;
    },
    readonly now: Date = new Date(),
  ) {
    super();
  }
}
