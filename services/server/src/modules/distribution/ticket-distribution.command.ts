import { AggregateCommand } from '../../shared/event-sourcing/aggregate-command.js';
import type { HandleResult } from '../../shared/event-sourcing/aggregate-handler.js';
import type { TicketDistributionCommand, TicketDistributionState } from './distribution.decider.js';
import type { TicketDistributionEvent } from './distribution.events.js';

export type TicketDistributionResult = HandleResult<TicketDistributionState, TicketDistributionEvent>;

/**
 * A command on one ticket's distribution stream (recall a link, give up a link paid for and not made), with who asked
 * and from where. Making a link is not one: the distribute flow decides it, pays for it, then appends it.
 */
export class TicketDistributionCommandMessage extends AggregateCommand<
  Exclude<TicketDistributionCommand, { type: 'Distribute' }>,
  TicketDistributionState,
  TicketDistributionEvent
> {}
