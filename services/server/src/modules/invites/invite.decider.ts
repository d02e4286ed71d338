import { type Decider, DomainError } from '../../shared/event-sourcing/decider.js';
import type { InviteEvent } from './invite.events.js';

export interface InviteState {
  inviteId: string | null;
  code: string | null;
  maxUses: number;
  used: number;
  enabled: boolean;
  deleted: boolean;
  expiresAt: string | null;
  /** Users holding a use, so a release only gives back a use that was taken. */
  users: string[];
}

export type InviteCommand =
  | {
      type: 'CreateInvite';
      data: { inviteId: string; code: string; maxUses: number; expiresAt: string; createdBy: string; now: string };
    }
  | { type: 'UseInvite'; data: { code: string; userId: string; email: string; now: string } }
  | { type: 'ReleaseInviteUse'; data: { code: string; userId: string; now: string } }
  | { type: 'DisableInvite'; data: { code: string; by: string; now: string } }
  | { type: 'DeleteInvite'; data: { code: string; by: string; now: string } };

/** The one message for every code that cannot be used, so codes cannot be probed one state at a time. */
export const INVITE_INVALID = 'Invalid invite code';
export const INVITE_MESSAGES = {
  invalid: INVITE_INVALID,
  disabled: 'This invite code has been disabled',
  usedUp: 'This invite code has reached its maximum number of uses',
  expired: 'This invite code has expired',
} as const;

const exists = (s: InviteState) => s.inviteId !== null && !s.deleted;

export const inviteDecider: Decider<InviteState, InviteCommand, InviteEvent> = {
  initialState: () => ({
    inviteId: null,
    code: null,
    maxUses: 0,
    used: 0,
    enabled: false,
    deleted: false,
    expiresAt: null,
    users: [],
  }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'InviteCodeCreated':
        return {
          ...state,
          inviteId: event.data.inviteId,
          code: event.data.code,
          maxUses: event.data.maxUses,
          expiresAt: event.data.expiresAt,
          enabled: true,
        };
      case 'InviteCodeUsed':
        return { ...state, used: state.used + 1, users: [...state.users, event.data.userId] };
      case 'InviteCodeUseReleased':
        return {
          ...state,
          used: state.used - 1,
          users: state.users.filter((u) => u !== event.data.userId),
        };
      case 'InviteCodeDisabled':
        return { ...state, enabled: false };
      case 'InviteCodeDeleted':
        return { ...state, deleted: true, enabled: false };
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateInvite': {
        if (state.inviteId !== null) throw new DomainError('This invite code already exists', 'INVITE_EXISTS', 409);
        const { now, ...data } = command.data;
        if (!Number.isInteger(data.maxUses) || data.maxUses < 1 || data.maxUses > 1000) {
          throw new DomainError('max_uses must be between 1 and 1000', 'INVALID_MAX_USES', 400);
        }
        if (Date.parse(data.expiresAt) <= Date.parse(now)) {
          throw new DomainError('The expiry date must be in the future', 'INVALID_EXPIRY', 400);
        }
        return [{ type: 'InviteCodeCreated', data: { ...data, at: now } }];
      }
      case 'UseInvite': {
        if (!exists(state)) throw new DomainError(INVITE_MESSAGES.invalid, 'INVITE_INVALID', 400);
        // This user holds a use already (a retried registration): nothing more to take.
        if (state.users.includes(command.data.userId)) return [];
        if (!state.enabled) throw new DomainError(INVITE_MESSAGES.disabled, 'INVITE_DISABLED', 400);
        if (Date.parse(state.expiresAt!) <= Date.parse(command.data.now)) {
          throw new DomainError(INVITE_MESSAGES.expired, 'INVITE_EXPIRED', 400);
        }
        if (state.used >= state.maxUses) throw new DomainError(INVITE_MESSAGES.usedUp, 'INVITE_USED_UP', 400);
        const { now, ...data } = command.data;
        return [{ type: 'InviteCodeUsed', data: { inviteId: state.inviteId!, ...data, code: state.code!, at: now } }];
      }
      case 'ReleaseInviteUse': {
        if (!state.users.includes(command.data.userId)) return [];
        return [
          {
            type: 'InviteCodeUseReleased',
            data: { inviteId: state.inviteId!, code: state.code!, userId: command.data.userId, at: command.data.now },
          },
        ];
      }
      case 'DisableInvite': {
        if (!exists(state)) throw new DomainError('Invite code not found', 'INVITE_NOT_FOUND', 404);
        if (!state.enabled) return [];
        const data = { inviteId: state.inviteId!, code: state.code!, by: command.data.by, at: command.data.now };
        return [{ type: 'InviteCodeDisabled', data }];
      }
      case 'DeleteInvite': {
        if (!exists(state)) throw new DomainError('Invite code not found', 'INVITE_NOT_FOUND', 404);
        const data = { inviteId: state.inviteId!, code: state.code!, by: command.data.by, at: command.data.now };
        return [{ type: 'InviteCodeDeleted', data }];
      }
    }
  },
};
