import { NOTIFICATION_KINDS, type NotificationEmailPreferences, type NotificationKind } from '@seatlink/contracts';
import type { Decider } from '../../shared/event-sourcing/decider.js';
import type { NotificationsEvent } from './notifications.events.js';

export type NotificationsCommand =
  | {
      /** Mark these notifications read (each once, whatever the order they came in), or all (`ids` null). */
      type: 'MarkRead';
      /** `requestId`: the request's own stream (notificationsReadStream). */
      data: { userId: string; ids: readonly string[] | null; requestId: string; now: string };
    }
  | {
      /** Change how some kinds come by e-mail; the kinds not named stay as they are. */
      type: 'SetEmailPreferences';
      data: { userId: string; email: Partial<NotificationEmailPreferences>; now: string };
    }
  | {
      /** The one-click unsubscribe of an e-mail: no notification comes by e-mail any more. */
      type: 'Unsubscribe';
      data: { userId: string; now: string };
    };

export interface NotificationsState {
  /** How each kind comes by e-mail (none, until the user chooses). */
  email: NotificationEmailPreferences;
  /** A mark-read request's stream: it has marked (a repeat of it marks nothing more). */
  read: boolean;
}

/** No e-mail for any kind: where every user starts, and what unsubscribing leaves. */
export const NO_EMAIL = Object.fromEntries(
  NOTIFICATION_KINDS.map((kind) => [kind, 'off']),
) as NotificationEmailPreferences;

/**
 * A user's notifications: what the notification centre shows is built from the events it tells of (the projection);
 * the user's own acts on them are events too: their e-mail choices on their stream, each mark-read request on a stream
 * of its own. Marking read always succeeds (ids the user does not have, or has
 * read, are left as they are by the projection, which knows them); a preference or an unsubscribe that changes
 * nothing records nothing.
 */
export const notificationsDecider: Decider<NotificationsState, NotificationsCommand, NotificationsEvent> = {
  initialState: () => ({ email: NO_EMAIL, read: false }),
  evolve: (state, event) =>
    event.type === 'NotificationPreferencesSet' ? { ...state, email: event.data.email } : { ...state, read: true },
  decide: (command, state) => {
    switch (command.type) {
      case 'MarkRead': {
        const { userId, ids, now } = command.data;
        if (state.read) return [];
        return [
          {
            type: 'NotificationsRead',
            data: { userId, ids: ids === null ? null : [...new Set(ids)].sort(), at: now },
          },
        ];
      }
      case 'SetEmailPreferences': {
        const { userId, email, now } = command.data;
        const next = { ...state.email };
        for (const kind of NOTIFICATION_KINDS) next[kind] = email[kind] ?? state.email[kind];
        if (NOTIFICATION_KINDS.every((kind: NotificationKind) => next[kind] === state.email[kind])) return [];
        return [{ type: 'NotificationPreferencesSet', data: { userId, email: next, via: 'settings', at: now } }];
      }
      case 'Unsubscribe': {
        const { userId, now } = command.data;
        if (NOTIFICATION_KINDS.every((kind) => state.email[kind] === 'off')) return [];
        return [{ type: 'NotificationPreferencesSet', data: { userId, email: NO_EMAIL, via: 'unsubscribe', at: now } }];
      }
    }
  },
};
