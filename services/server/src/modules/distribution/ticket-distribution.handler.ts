import { aggregateCommandHandler } from '../../shared/event-sourcing/aggregate-command.js';
import { ticketDistributionDecider } from './distribution.decider.js';
import { ticketDistributionStream } from './distribution.events.js';
import { TicketDistributionCommandMessage } from './ticket-distribution.command.js';

/** The ticket distribution stream's commands. */
export const TicketDistributionCommandHandler = aggregateCommandHandler(TicketDistributionCommandMessage, {
  decider: ticketDistributionDecider,
  streamOf: (command) => ticketDistributionStream(command.data.ticketId),
});
