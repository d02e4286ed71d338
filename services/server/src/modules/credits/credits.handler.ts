import { aggregateCommandHandler } from '../../shared/event-sourcing/aggregate-command.js';
import { CreditsCommandMessage } from './credits.command.js';
import { creditsDecider } from './credits.decider.js';
import { creditStream } from './credits.events.js';

/**
 * The credit stream's commands. The stream decides (the balance never goes below zero); within this process the
 * commands of one user take turns, so a burst of parallel requests does not spend its time retrying against itself;
 * across processes the expected revision settles it, with retries to spare.
 */
export const CreditsCommandHandler = aggregateCommandHandler(CreditsCommandMessage, {
  decider: creditsDecider,
  streamOf: (command) => creditStream(command.data.userId),
  oneAtATime: true,
  maxAttempts: 100,
});
