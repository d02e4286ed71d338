import { aggregateCommandHandler } from '../../shared/event-sourcing/aggregate-command.js';
import { WaitlistCommandMessage } from './waitlist.command.js';
import { waitlistDecider } from './waitlist.decider.js';
import { waitlistStream } from './waitlist.events.js';

/** The waitlist stream's command: joining, once per address. */
export const WaitlistCommandHandler = aggregateCommandHandler(WaitlistCommandMessage, {
  decider: waitlistDecider,
  streamOf: (command) => waitlistStream(command.data.email),
});
