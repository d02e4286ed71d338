import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { inviteDecider } from './invite.decider.js';
import type { InviteCodeCreated, InviteCodeUsed } from './invite.events.js';

const now = '2026-05-01T10:00:00.000Z';
const created: InviteCodeCreated = {
  type: 'InviteCodeCreated',
  data: { inviteId: 'i1', code: 'ABCD', maxUses: 2, expiresAt: '2026-06-01T00:00:00.000Z', createdBy: 'a1', at: now },
};
const used = (userId: string): InviteCodeUsed => ({
  type: 'InviteCodeUsed',
  data: { inviteId: 'i1', code: 'ABCD', userId, email: `${userId}@x.test`, at: now },
});
const use = (userId: string, at = now) =>
  ({ type: 'UseInvite', data: { code: 'ABCD', userId, email: `${userId}@x.test`, now: at } }) as const;

describe('invite decider', () => {
  const spec = deciderSpec(inviteDecider);

  it('creates a code with max uses and expiry', () => {
    const { at: _at, ...data } = created.data;
    spec
      .given([])
      .when({ type: 'CreateInvite', data: { ...data, now } })
      .then([created]);
  });

  it('refuses max uses outside 1..1000 and an expiry in the past', () => {
    const { at: _at, ...data } = created.data;
    spec
      .given([])
      .when({ type: 'CreateInvite', data: { ...data, maxUses: 1001, now } })
      .thenThrows({ code: 'INVALID_MAX_USES' });
    spec
      .given([])
      .when({ type: 'CreateInvite', data: { ...data, expiresAt: '2026-04-01T00:00:00.000Z', now } })
      .thenThrows({ code: 'INVALID_EXPIRY' });
  });

  it('lets registrations use the code up to max uses, then refuses', () => {
    spec
      .given([created])
      .when(use('u1'))
      .then([used('u1')]);
    spec
      .given([created, used('u1')])
      .when(use('u2'))
      .then([used('u2')]);
    spec
      .given([created, used('u1'), used('u2')])
      .when(use('u3'))
      .thenThrows({ code: 'INVITE_USED_UP', message: 'This invite code has reached its maximum number of uses' });
  });

  it('refuses an unknown, a disabled, a deleted and an expired code', () => {
    spec.given([]).when(use('u1')).thenThrows({ code: 'INVITE_INVALID', message: 'Invalid invite code' });
    const disabled = { type: 'InviteCodeDisabled' as const, data: { inviteId: 'i1', code: 'ABCD', by: 'a1', at: now } };
    spec.given([created, disabled]).when(use('u1')).thenThrows({ code: 'INVITE_DISABLED' });
    const deleted = { type: 'InviteCodeDeleted' as const, data: { inviteId: 'i1', code: 'ABCD', by: 'a1', at: now } };
    spec.given([created, deleted]).when(use('u1')).thenThrows({ code: 'INVITE_INVALID' });
    spec.given([created]).when(use('u1', '2026-06-01T00:00:00.000Z')).thenThrows({ code: 'INVITE_EXPIRED' });
  });

  it('gives a use back once, and only to a user who took one', () => {
    const release = { type: 'ReleaseInviteUse' as const, data: { code: 'ABCD', userId: 'u1', now } };
    spec
      .given([created, used('u1')])
      .when(release)
      .then([{ type: 'InviteCodeUseReleased', data: { inviteId: 'i1', code: 'ABCD', userId: 'u1', at: now } }]);
    spec.given([created]).when(release).then([]);
    spec
      .given([
        created,
        used('u1'),
        used('u2'),
        { type: 'InviteCodeUseReleased', data: { inviteId: 'i1', code: 'ABCD', userId: 'u1', at: now } },
      ])
      .when(use('u3'))
      .then([used('u3')]);
  });

  it('disables once (again is a no-op) and deletes', () => {
    spec
      .given([created])
      .when({ type: 'DisableInvite', data: { code: 'ABCD', by: 'a1', now } })
      .then([{ type: 'InviteCodeDisabled', data: { inviteId: 'i1', code: 'ABCD', by: 'a1', at: now } }]);
    spec
      .given([created, { type: 'InviteCodeDisabled', data: { inviteId: 'i1', code: 'ABCD', by: 'a1', at: now } }])
      .when({ type: 'DisableInvite', data: { code: 'ABCD', by: 'a1', now } })
      .then([]);
    spec
      .given([created])
      .when({ type: 'DeleteInvite', data: { code: 'ABCD', by: 'a1', now } })
      .then([{ type: 'InviteCodeDeleted', data: { inviteId: 'i1', code: 'ABCD', by: 'a1', at: now } }]);
  });
});
