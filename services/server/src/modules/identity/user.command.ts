import { AggregateCommand } from '../../shared/event-sourcing/aggregate-command.js';
import type { HandleResult } from '../../shared/event-sourcing/aggregate-handler.js';
import type { UserCommand, UserState } from './user.decider.js';
import type { UserEvent } from './user.events.js';

export type UserCommandResult = HandleResult<UserState, UserEvent>;

/** Any command on one user's stream (login, verification, password change, ban, requests), with who asked and from where. */
export class UserCommandMessage extends AggregateCommand<
  Exclude<UserCommand, { type: 'RegisterUser' }>,
  UserState,
  UserEvent
> {}
