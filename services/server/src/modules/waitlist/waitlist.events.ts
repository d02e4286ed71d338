import type { DomainEvent } from '../../shared/event-sourcing/decider.js';

export type WaitlistJoined = DomainEvent<
  'WaitlistJoined',
  { email: string; firstName: string; lastName: string; at: string }
>;

/** One stream per address: joining twice is a quiet no-op. */
export const waitlistStream = (email: string) => `waitlist-${email.toLowerCase()}`;
