import type { DomainEvent } from '../../shared/event-sourcing/decider.js';

export type InviteCodeCreated = DomainEvent<
  'InviteCodeCreated',
  { inviteId: string; code: string; maxUses: number; expiresAt: string; createdBy: string; at: string }
>;
export type InviteCodeUsed = DomainEvent<
  'InviteCodeUsed',
  { inviteId: string; code: string; userId: string; email: string; at: string }
>;
/** A use given back: the registration that took it could not finish. */
export type InviteCodeUseReleased = DomainEvent<
  'InviteCodeUseReleased',
  { inviteId: string; code: string; userId: string; at: string }
>;
export type InviteCodeDisabled = DomainEvent<
  'InviteCodeDisabled',
  { inviteId: string; code: string; by: string; at: string }
>;
export type InviteCodeDeleted = DomainEvent<
  'InviteCodeDeleted',
  { inviteId: string; code: string; by: string; at: string }
>;

export type InviteEvent =
  InviteCodeCreated | InviteCodeUsed | InviteCodeUseReleased | InviteCodeDisabled | InviteCodeDeleted;

/** One stream per code: it alone decides whether one more registration may use it. */
export const inviteStream = (code: string) => `invite-${code.toUpperCase()}`;
