import { inviteCodes } from '../../invites.schema.js';
import { rowProjection } from '../../../../infra/subscriptions/row-projection.js';
import type { InviteEvent } from '../../invite.events.js';

/** `invite_codes`: the admin list of codes with their usage. Deleted codes leave the table. */
export const inviteCodesProjection = rowProjection<typeof inviteCodes, InviteEvent>({
  name: 'invite-codes',
  table: inviteCodes,
  key: 'id',
  handles: ['InviteCodeCreated', 'InviteCodeUsed', 'InviteCodeUseReleased', 'InviteCodeDisabled', 'InviteCodeDeleted'],
  keyOf: (event) => event.data.inviteId,
  evolve(row, event) {
    if (event.type === 'InviteCodeCreated') {
      if (row) return row;
      const d = event.data;
      return {
        id: d.inviteId,
        code: d.code,
        used: 0,
        maxUses: d.maxUses,
        enabled: true,
        expiresAt: new Date(d.expiresAt),
        createdAt: new Date(d.at),
        createdBy: d.createdBy,
      };
    }
    if (!row) return null;
    switch (event.type) {
      case 'InviteCodeUsed':
        return { ...row, used: row.used + 1 };
      case 'InviteCodeUseReleased':
        return { ...row, used: row.used - 1 };
      case 'InviteCodeDisabled':
        return { ...row, enabled: false };
      case 'InviteCodeDeleted':
        return null;
    }
  },
});
