import { eq, sql } from 'drizzle-orm';
import { inviteCodes } from '../../../../infra/db/schema.js';
import type { Projection } from '../../../../infra/projections/projection.js';
import type { InviteEvent } from '../../invite.events.js';

/** `invite_codes`: the admin list of codes with their usage. Deleted codes leave the table. */
export const inviteCodesProjection: Projection = {
  name: 'invite-codes',
  tables: ['invite_codes'],
  handles: ['InviteCodeCreated', 'InviteCodeUsed', 'InviteCodeUseReleased', 'InviteCodeDisabled', 'InviteCodeDeleted'],
  async apply(recorded, { tx }) {
    const event = { type: recorded.type, data: recorded.data } as InviteEvent;
    switch (event.type) {
      case 'InviteCodeCreated':
        await tx
          .insert(inviteCodes)
          .values({
            id: event.data.inviteId,
            code: event.data.code,
            maxUses: event.data.maxUses,
            expiresAt: new Date(event.data.expiresAt),
            createdAt: new Date(event.data.at),
            createdBy: event.data.createdBy,
          })
          .onConflictDoNothing();
        return;
      case 'InviteCodeUsed':
        await tx
          .update(inviteCodes)
          .set({ used: sql`${inviteCodes.used} + 1` })
          .where(eq(inviteCodes.id, event.data.inviteId));
        return;
      case 'InviteCodeUseReleased':
        await tx
          .update(inviteCodes)
          .set({ used: sql`${inviteCodes.used} - 1` })
          .where(eq(inviteCodes.id, event.data.inviteId));
        return;
      case 'InviteCodeDisabled':
        await tx.update(inviteCodes).set({ enabled: false }).where(eq(inviteCodes.id, event.data.inviteId));
        return;
      case 'InviteCodeDeleted':
        await tx.delete(inviteCodes).where(eq(inviteCodes.id, event.data.inviteId));
        return;
    }
  },
};
