import { AggregateCommand, aggregateCommandHandler } from '../../shared/event-sourcing/aggregate-command.js';
import { type WebhooksCommand, webhooksDecider, type WebhooksState } from './webhooks.decider.js';
import { type WebhookEvent, webhooksStream } from './webhooks.events.js';

/** A command on one user's webhook endpoints stream. */
export class WebhooksCommandMessage extends AggregateCommand<WebhooksCommand, WebhooksState, WebhookEvent> {}

export const WebhooksCommandHandler = aggregateCommandHandler(WebhooksCommandMessage, {
  decider: webhooksDecider,
  streamOf: (command) => webhooksStream(command.data.userId),
  // A burst of requests of one user (a script making endpoints) races on the user's one stream: each is decided again
  // until it gets its turn, refused only by the limit.
  maxAttempts: 50,
});
