import type { Routine } from '../../infra/db/database.js';

// The wallet-accounts module's functions in the database, as they are now (migration 0018 first made them);
// `Database.migrate()` applies them after the migrations.

/**
 * AFTER DELETE on `tickets`, once per statement (its deleted rows as the transition table `gone`): each ticket that
 * left is kept in `removed_tickets` with the version it left at (the deleting transaction), so GET /v1/tickets?since=
 * can say which tickets a client must drop. A ticket that comes back (the same pass again) shows again in `tickets`;
 * the answer leaves it out of `removed`.
 */
const recordRemovedTickets: Routine = {
  name: 'seatlink_record_removed_tickets',
  sql: `
CREATE OR REPLACE FUNCTION seatlink_record_removed_tickets() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO removed_tickets AS r (ticket_id, user_id, version, removed_at)
  SELECT g.id, g.user_id, pg_current_xact_id()::text::bigint, now() FROM gone g
  ON CONFLICT (ticket_id) DO UPDATE
    SET user_id = excluded.user_id, version = excluded.version, removed_at = excluded.removed_at;
  RETURN NULL;
END
$$;
`,
};

export const walletAccountsRoutines: readonly Routine[] = [recordRemovedTickets];
