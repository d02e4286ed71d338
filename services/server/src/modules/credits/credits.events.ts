import type { DomainEvent } from '../../shared/event-sourcing/decider.js';

/** An admin set the balance to an exact figure. */
export type CreditsSet = DomainEvent<
  'CreditsSet',
  { userId: string; credits: number; previousBalance: number; setBy: string; at: string }
>;

export type CreditsEvent = CreditsSet;

/** One stream per user: it owns the user's credits and decides every change to them. */
export const creditStream = (userId: string) => `credits-${userId}`;
