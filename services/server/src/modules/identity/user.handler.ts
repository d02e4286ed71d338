import { aggregateCommandHandler } from '../../shared/event-sourcing/aggregate-command.js';
import { UserCommandMessage } from './user.command.js';
import { userDecider } from './user.decider.js';
import { userStream } from './user.events.js';

/** The user stream's commands (registration aside: the registration flow sends it with its invite). */
export const UserCommandHandler = aggregateCommandHandler(UserCommandMessage, {
  decider: userDecider,
  streamOf: (command) => userStream(command.data.userId),
});
