import { AggregateCommand } from '../../shared/event-sourcing/aggregate-command.js';
import type { NotificationsCommand, NotificationsState } from './notifications.decider.js';
import type { NotificationsEvent } from './notifications.events.js';

/** A command on one user's notifications stream (mark read). */
export class NotificationsCommandMessage extends AggregateCommand<
  NotificationsCommand,
  NotificationsState,
  NotificationsEvent
> {}
