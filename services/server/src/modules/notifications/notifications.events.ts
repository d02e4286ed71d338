import type { NotificationEmailPreferences } from '@seatlink/contracts';
import type { DomainEvent } from '../../shared/event-sourcing/decider.js';

/** The user read these notifications (`ids`), or all they had (`ids` null), at `at`. */
export type NotificationsRead = DomainEvent<'NotificationsRead', { userId: string; ids: string[] | null; at: string }>;

/**
 * Which notifications the user wants by e-mail, and how, as they are now (every kind): set on the settings page, or
 * all off by the one-click unsubscribe link of an e-mail (`via`).
 */
export type NotificationPreferencesSet = DomainEvent<
  'NotificationPreferencesSet',
  { userId: string; email: NotificationEmailPreferences; via: 'settings' | 'unsubscribe'; at: string }
>;

export type NotificationsEvent = NotificationsRead | NotificationPreferencesSet;

/** One stream per user: their e-mail choices. */
export const notificationsStream = (userId: string) => `notifications-${userId}`;
/**
 * One stream per mark-read request (as a request's refusals have): marking read decides on nothing, so it reads no
 * growing stream and contends with nothing; a request repeated with its Idempotency-Key names the same stream.
 */
export const notificationsReadStream = (userId: string, requestId: string) =>
  `notifications-read-${userId}-${requestId}`;
