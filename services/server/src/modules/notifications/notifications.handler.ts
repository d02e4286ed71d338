import { aggregateCommandHandler } from '../../shared/event-sourcing/aggregate-command.js';
import { NotificationsCommandMessage } from './notifications.command.js';
import { notificationsDecider } from './notifications.decider.js';
import { notificationsReadStream, notificationsStream } from './notifications.events.js';

/** The notifications stream's command: marking read. */
export const NotificationsCommandHandler = aggregateCommandHandler(NotificationsCommandMessage, {
  decider: notificationsDecider,
  streamOf: (command) =>
    command.type === 'MarkRead'
      ? notificationsReadStream(command.data.userId, command.data.requestId)
      : notificationsStream(command.data.userId),
});
