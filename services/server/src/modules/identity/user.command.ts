import { AggregateCommand } from '../../shared/event-sourcing/aggregate-command.js';
import type { HandleResult } from '../../shared/event-sourcing/aggregate-handler.js';
import type { EmailClaimCommand, EmailClaimState, UserCommand, UserState } from './user.decider.js';
import type { EmailClaimEvent, UserEvent } from './user.events.js';

export type UserCommandResult = HandleResult<UserState, UserEvent>;

/**
 * Any command on one user's stream (registration, login, verification, password change, ban, requests), with who
 * asked and from where. A visitor's registration goes through the registration flow, which claims its invite use and
 * address first.
 */
export class UserCommandMessage extends AggregateCommand<UserCommand, UserState, UserEvent> {}

/** Claiming or giving back an e-mail address on its own stream, so that an address is taken once. */
export class EmailClaimCommandMessage extends AggregateCommand<EmailClaimCommand, EmailClaimState, EmailClaimEvent> {}
