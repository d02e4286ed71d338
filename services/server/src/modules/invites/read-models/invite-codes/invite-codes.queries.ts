import { desc, eq } from 'drizzle-orm';
import type { InviteCode } from '@seatlink/contracts';
import type { Executor } from '../../../../infra/db/database.js';
import { inviteCodes } from '../../invites.schema.js';

type Row = typeof inviteCodes.$inferSelect;

export function toInviteCode(row: Row): InviteCode {
  return {
    id: row.id,
    code: row.code,
    used: row.used,
    max_uses: row.maxUses,
    enabled: row.enabled,
    expires_at: new Date(row.expiresAt).toISOString(),
    created_at: new Date(row.createdAt).toISOString(),
  };
}

export async function listInviteCodes(db: Executor): Promise<InviteCode[]> {
  const rows = await db.select().from(inviteCodes).orderBy(desc(inviteCodes.createdAt), inviteCodes.code);
  return rows.map(toInviteCode);
}

export async function findInviteById(db: Executor, id: string): Promise<InviteCode | null> {
  const [row] = await db.select().from(inviteCodes).where(eq(inviteCodes.id, id));
  return row ? toInviteCode(row) : null;
}

export async function findInviteByCode(db: Executor, code: string): Promise<InviteCode | null> {
  const [row] = await db.select().from(inviteCodes).where(eq(inviteCodes.code, code.toUpperCase()));
  return row ? toInviteCode(row) : null;
}
