import type { Decider } from '../../shared/event-sourcing/decider.js';
import type { WaitlistJoined } from './waitlist.events.js';

export type JoinWaitlist = {
  type: 'JoinWaitlist';
  data: { email: string; firstName: string; lastName: string; now: string };
};

export const waitlistDecider: Decider<{ joined: boolean }, JoinWaitlist, WaitlistJoined> = {
  initialState: () => ({ joined: false }),
  evolve: () => ({ joined: true }),
  decide: (command, state) => {
    if (state.joined) return [];
    const { now, ...rest } = command.data;
    return [{ type: 'WaitlistJoined', data: { ...rest, at: now } }];
  },
};
