import { aggregateCommandHandler } from '../../shared/event-sourcing/aggregate-command.js';
import { InviteCommandMessage } from './invite.command.js';
import { inviteDecider } from './invite.decider.js';
import { inviteStream } from './invite.events.js';

/** The invite code stream's commands. */
export const InviteCommandHandler = aggregateCommandHandler(InviteCommandMessage, {
  decider: inviteDecider,
  streamOf: (command) => inviteStream(command.data.code),
  // Registrations with one code race for its uses on its stream.
  maxAttempts: 50,
});
