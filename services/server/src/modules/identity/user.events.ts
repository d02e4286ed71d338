import type { DomainEvent } from '../../shared/event-sourcing/decider.js';

export type UserRegistered = DomainEvent<
  'UserRegistered',
  {
    userId: string;
    email: string;
    firstName: string;
    lastName: string;
    passwordHash: string;
    isAdmin: boolean;
    emailVerified: boolean;
    registeredAt: string;
  }
>;
export type UserLoggedIn = DomainEvent<'UserLoggedIn', { userId: string; at: string }>;

export type UserEvent = UserRegistered | UserLoggedIn;

/** The claim on an e-mail address: one stream per address, so two registrations cannot both take it. */
export type EmailClaimed = DomainEvent<'EmailClaimed', { email: string; userId: string }>;

export const userStream = (userId: string) => `user-${userId}`;
export const emailClaimStream = (email: string) => `user-email-${email.toLowerCase()}`;
