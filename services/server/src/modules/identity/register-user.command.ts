import { Command } from '@nestjs/cqrs';
import type { UserEvent } from './user.events.js';
import { clock } from '../../shared/clock.js';

export interface RegisterUserResult {
  userId: string;
  position: string | null;
  events: UserEvent[];
  /**
   * The address was taken (only with `ifEmailTaken: 'tell-owner'`): nothing was registered, the invite use was given
   * back, and `events` are those that tell the address's owner.
   */
  emailTaken?: true;
}

/**
 * Registers a user: a visitor with an invite code, or an admin's new user (an invite use, the e-mail, the user). The
 * registration flow's entry command (register-user.flow.ts).
 */
export class RegisterUserCommand extends Command<RegisterUserResult> {
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
      /**
       * What a taken address does: refuse with 409 EMAIL_TAKEN (the default), or — for a visitor, who must not learn
       * which addresses have accounts — succeed quietly, registering nothing, and tell the address's owner.
       */
      ifEmailTaken?: 'refuse' | 'tell-owner';
    },
    readonly now: Date = clock.now(),
  ) {
    super();
  }
}
