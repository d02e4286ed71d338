import type { DomainEvent } from '../../shared/event-sourcing/decider.js';

/** The user read these notifications (`ids`), or all they had (`ids` null), at `at`. */
export type NotificationsRead = DomainEvent<'NotificationsRead', { userId: string; ids: string[] | null; at: string }>;

export type NotificationsEvent = NotificationsRead;

/** One stream per user: what they did with their notifications. */
export const notificationsStream = (userId: string) => `notifications-${userId}`;
