import type { Routine } from '../../infra/db/database.js';

// The wallet-accounts module's functions in the database, as they are now (migrations 0018 and 0029 first made them);
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

/**
 * BEFORE INSERT OR UPDATE on `wallet_accounts`, for each row: a new row, or a new e-mail (the one column a ticket's
 * answer reads from it), is stamped with the writing transaction; any other write keeps the version it had. A sync
 * rewrites its account's row (its error state, the passes it left out) through an upsert, which would otherwise mark
 * every ticket of the account as changed at every sync. An account's row that comes after its tickets' rows (its
 * projection behind theirs, a rebuild of it alone) is newer than the version a client read them at, so its tickets
 * are answered as changed then.
 */
const stampAccountVersion: Routine = {
  name: 'seatlink_stamp_account_version',
  sql: `
CREATE OR REPLACE FUNCTION seatlink_stamp_account_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.email IS DISTINCT FROM OLD.email THEN
    NEW.version := pg_current_xact_id()::text::bigint;
  ELSE
    NEW.version := OLD.version;
  END IF;
  RETURN NEW;
END
$$;
`,
};

export const walletAccountsRoutines: readonly Routine[] = [recordRemovedTickets, stampAccountVersion];
