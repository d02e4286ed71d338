import { Command } from '@nestjs/cqrs';
import type { UserCommand, UserState } from './user.decider.js';
import type { UserEvent } from './user.events.js';

export interface UserCommandResult {
  position: string | null;
  events: UserEvent[];
  /** The user's state the command was decided on. */
  state: UserState;
}

/** Any command on one user's stream (login, verification, password change, ban, requests), with who asked and from where. */
export class UserCommandMessage extends Command<UserCommandResult> {
  constructor(
    readonly command: Exclude<UserCommand, { type: 'RegisterUser' }>,
    readonly meta: { actorId: string; ip?: string; commandId?: string },
  ) {
    super();
  }
}
