import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { NO_EMAIL, notificationsDecider } from './notifications.decider.js';
import type { NotificationsEvent } from './notifications.events.js';

describe('notifications decider', () => {
  const spec = deciderSpec(notificationsDecider);
  const now = '2026-11-27T08:00:00.000Z';
  const set = (email: Record<string, string>, via: 'settings' | 'unsubscribe' = 'settings'): NotificationsEvent => ({
    type: 'NotificationPreferencesSet',
    data: { userId: 'u1', email: { ...NO_EMAIL, ...email }, via, at: now },
  });

  it('marks read the ids named, each once and in one order, or all', () => {
    spec
      .given([])
      .when({ type: 'MarkRead', data: { userId: 'u1', ids: ['b', 'a', 'b'], requestId: 'r1', now } })
      .then([{ type: 'NotificationsRead', data: { userId: 'u1', ids: ['a', 'b'], at: now } }]);
    spec
      .given([])
      .when({ type: 'MarkRead', data: { userId: 'u1', ids: null, requestId: 'r2', now } })
      .then([{ type: 'NotificationsRead', data: { userId: 'u1', ids: null, at: now } }]);
  });

  it('marks once per request: its stream holds its one mark', () => {
    spec
      .given([{ type: 'NotificationsRead', data: { userId: 'u1', ids: ['a'], at: now } }])
      .when({ type: 'MarkRead', data: { userId: 'u1', ids: ['a'], requestId: 'r1', now } })
      .then([]);
  });

  it('sends no e-mail until the user chooses; a choice keeps the kinds it does not name', () => {
    spec
      .given([])
      .when({ type: 'SetEmailPreferences', data: { userId: 'u1', email: { link_claimed: 'immediate' }, now } })
      .then([set({ link_claimed: 'immediate' })]);
    spec
      .given([set({ link_claimed: 'immediate' })])
      .when({ type: 'SetEmailPreferences', data: { userId: 'u1', email: { credits_added: 'daily' }, now } })
      .then([set({ link_claimed: 'immediate', credits_added: 'daily' })]);
  });

  it('records nothing when nothing would change', () => {
    spec
      .given([set({ link_claimed: 'immediate' })])
      .when({ type: 'SetEmailPreferences', data: { userId: 'u1', email: { link_claimed: 'immediate' }, now } })
      .then([]);
    spec
      .given([])
      .when({ type: 'SetEmailPreferences', data: { userId: 'u1', email: { link_expiring: 'off' }, now } })
      .then([]);
  });

  it('turns every e-mail off with the one-click unsubscribe, once', () => {
    spec
      .given([set({ link_claimed: 'immediate', link_expiring: 'daily' })])
      .when({ type: 'Unsubscribe', data: { userId: 'u1', now } })
      .then([set({}, 'unsubscribe')]);
    spec
      .given([set({ link_claimed: 'immediate' }), set({}, 'unsubscribe')])
      .when({ type: 'Unsubscribe', data: { userId: 'u1', now } })
      .then([]);
    spec
      .given([])
      .when({ type: 'Unsubscribe', data: { userId: 'u1', now } })
      .then([]);
  });
});
