import { type Decider, DomainError } from '../../shared/event-sourcing/decider.js';
import type { EmailClaimed, UserEvent, UserRegistered } from './user.events.js';

export interface UserState {
  exists: boolean;
  userId: string | null;
}

export type UserCommand =
  | { type: 'RegisterUser'; data: Omit<UserRegistered['data'], 'registeredAt'> & { now: string } }
  | { type: 'RecordLogin'; data: { userId: string; now: string } };

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: () => ({ exists: false, userId: null }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'UserRegistered':
        return { exists: true, userId: event.data.userId };
      case 'UserLoggedIn':
        return state;
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'RegisterUser': {
        if (state.exists) throw new DomainError('This user already exists', 'USER_EXISTS', 409);
        const { now, ...rest } = command.data;
        return [{ type: 'UserRegistered', data: { ...rest, registeredAt: now } }];
      }
      case 'RecordLogin':
        if (!state.exists) throw new DomainError('User not found', 'USER_NOT_FOUND', 404);
        return [{ type: 'UserLoggedIn', data: { userId: command.data.userId, at: command.data.now } }];
    }
  },
};

export interface EmailClaimState {
  claimedBy: string | null;
}

export type ClaimEmail = { type: 'ClaimEmail'; data: { email: string; userId: string } };

export const emailClaimDecider: Decider<EmailClaimState, ClaimEmail, EmailClaimed> = {
  initialState: () => ({ claimedBy: null }),
  evolve: (_state, event) => ({ claimedBy: event.data.userId }),
  decide: (command, state) => {
    if (state.claimedBy !== null && state.claimedBy !== command.data.userId) {
      throw new DomainError('An account with this email already exists', 'EMAIL_TAKEN', 409);
    }
    if (state.claimedBy === command.data.userId) return [];
    return [{ type: 'EmailClaimed', data: { email: command.data.email, userId: command.data.userId } }];
  },
};
