import { aggregateCommandHandler } from '../../shared/event-sourcing/aggregate-command.js';
import { ticketDistributionDecider } from './distribution.decider.js';
import { ticketDistributionStream } from './distribution.events.js';
import { TicketDistributionCommandMessage } from './ticket-distribution.command.js';

/**
 * The ticket distribution stream's commands. A ticket's stream is hot when many requests ask for its link at once:
 * those that lost void what they paid for on it, all at the same moment. Within this process they take turns instead
 * of retrying against each other (ten tries were not always enough on a busy machine, and a void that gave up left
 * the refund to the settle job); across processes the expected revision decides, with retries to spare.
 */
export const TicketDistributionCommandHandler = aggregateCommandHandler(TicketDistributionCommandMessage, {
  decider: ticketDistributionDecider,
  streamOf: (command) => ticketDistributionStream(command.data.ticketId),
  oneAtATime: true,
  maxAttempts: 50,
});
