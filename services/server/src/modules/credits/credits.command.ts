import { AggregateCommand } from '../../shared/event-sourcing/aggregate-command.js';
import type { HandleResult } from '../../shared/event-sourcing/aggregate-handler.js';
import type { CreditsCommand, CreditsState } from './credits.decider.js';
import type { CreditsEvent } from './credits.events.js';

export type CreditsCommandResult = HandleResult<CreditsState, CreditsEvent>;

/**
 * Any command on one user's credit stream (set by an admin, spent on links, given back, bought or taken back by card),
 * with who asked and from where. A spend the balance does not cover is refused with InsufficientCreditsError (402).
 */
export class CreditsCommandMessage extends AggregateCommand<CreditsCommand, CreditsState, CreditsEvent> {}

/** The balance after a credits command: its last change's, or, when it changed nothing, the balance it found. */
export function balanceAfter(result: CreditsCommandResult): number {
  const last = result.events.at(-1);
  return last && 'balanceAfter' in last.data ? last.data.balanceAfter : result.state.balance;
}
