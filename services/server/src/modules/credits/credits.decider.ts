import { type Decider, DomainError } from '../../shared/event-sourcing/decider.js';
import type { CreditsEvent } from './credits.events.js';

export interface CreditsState {
  balance: number;
}

export type CreditsCommand = {
  type: 'SetCredits';
  data: { userId: string; credits: number; setBy: string; now: string };
};

export const MAX_CREDITS = 1_000_000_000;

export const creditsDecider: Decider<CreditsState, CreditsCommand, CreditsEvent> = {
  initialState: () => ({ balance: 0 }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'CreditsSet':
        return { balance: event.data.credits };
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'SetCredits': {
        const { credits } = command.data;
        if (!Number.isInteger(credits) || credits < 0 || credits > MAX_CREDITS) {
          throw new DomainError('Credits must be a whole number from 0 to 1000000000', 'INVALID_CREDITS', 400);
        }
        return [
          {
            type: 'CreditsSet',
            data: {
              userId: command.data.userId,
              credits,
              previousBalance: state.balance,
              setBy: command.data.setBy,
              at: command.data.now,
            },
          },
        ];
      }
    }
  },
};
