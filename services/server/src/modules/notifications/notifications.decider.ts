import type { Decider } from '../../shared/event-sourcing/decider.js';
import type { NotificationsEvent } from './notifications.events.js';

export type NotificationsCommand = {
  /** Mark these notifications read (each once, whatever the order they came in), or all (`ids` null). */
  type: 'MarkRead';
  data: { userId: string; ids: readonly string[] | null; now: string };
};

/** When the user last marked all read; a mark of some since says which. */
export interface NotificationsState {
  allReadAt: string | null;
}

/**
 * A user's notifications: what the notification centre shows is built from the events it tells of (the projection);
 * this stream holds only the user's own acts on them. Marking read always succeeds: ids the user does not have, or
 * has read, are left as they are by the projection (which knows them).
 */
export const notificationsDecider: Decider<NotificationsState, NotificationsCommand, NotificationsEvent> = {
  initialState: () => ({ allReadAt: null }),
  evolve: (state, event) => (event.data.ids === null ? { allReadAt: event.data.at } : state),
  decide: (command) => {
    const { userId, ids, now } = command.data;
    return [
      {
        type: 'NotificationsRead',
        data: { userId, ids: ids === null ? null : [...new Set(ids)].sort(), at: now },
      },
    ];
  },
};
