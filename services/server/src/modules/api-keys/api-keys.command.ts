import { AggregateCommand, aggregateCommandHandler } from '../../shared/event-sourcing/aggregate-command.js';
import { type ApiKeysCommand, apiKeysDecider, type ApiKeysState } from './api-keys.decider.js';
import { type ApiKeyEvent, apiKeysStream } from './api-keys.events.js';

/** A command on one user's API keys stream. */
export class ApiKeysCommandMessage extends AggregateCommand<ApiKeysCommand, ApiKeysState, ApiKeyEvent> {}

export const ApiKeysCommandHandler = aggregateCommandHandler(ApiKeysCommandMessage, {
  decider: apiKeysDecider,
  streamOf: (command) => apiKeysStream(command.data.userId),
  // A burst of requests of one user (a script making keys) races on the user's one stream: each is decided again
  // until it gets its turn, refused only by the limit.
  maxAttempts: 50,
});
