import { aggregateCommandHandler } from '../../shared/event-sourcing/aggregate-command.js';
import { EmailClaimCommandMessage, UserCommandMessage } from './user.command.js';
import { emailClaimDecider, userDecider } from './user.decider.js';
import { emailClaimStream, userStream } from './user.events.js';

/** The user stream's commands. */
export const UserCommandHandler = aggregateCommandHandler(UserCommandMessage, {
  decider: userDecider,
  streamOf: (command) => userStream(command.data.userId),
});

/** The e-mail address claims' commands. */
export const EmailClaimCommandHandler = aggregateCommandHandler(EmailClaimCommandMessage, {
  decider: emailClaimDecider,
  streamOf: (command) => emailClaimStream(command.data.email),
});
