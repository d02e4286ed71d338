CREATE TABLE "read_model_floors" (
	"table_name" text PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "removed_tickets" (
	"ticket_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"version" bigint NOT NULL,
	"removed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "tickets_user_idx";--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pass_groups" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "removed_tickets_user_version_idx" ON "removed_tickets" USING btree ("user_id","version");--> statement-breakpoint
CREATE INDEX "removed_tickets_removed_idx" ON "removed_tickets" USING btree ("removed_at");--> statement-breakpoint
CREATE INDEX "links_user_version_idx" ON "links" USING btree ("user_id","version");--> statement-breakpoint
CREATE INDEX "pass_groups_version_idx" ON "pass_groups" USING btree ("version");--> statement-breakpoint
CREATE INDEX "tickets_user_seen_idx" ON "tickets" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_user_version_idx" ON "tickets" USING btree ("user_id","version");--> statement-breakpoint
-- Versioned read models (infra/db/read-model-versions.ts): every write of a row of tickets, pass_groups or links stamps
-- it with the writing transaction; a TRUNCATE (a rebuild) raises the table's floor; a ticket deleted is kept in
-- removed_tickets. The functions are made here for the triggers; their source is read-model-versions.routines.ts and
-- wallet-accounts.routines.ts, which every start applies again.
CREATE OR REPLACE FUNCTION seatlink_stamp_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := pg_current_xact_id()::text::bigint;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION seatlink_raise_version_floor_to(p_table text, p_version bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO read_model_floors AS f (table_name, version) VALUES (p_table, p_version)
  ON CONFLICT (table_name) DO UPDATE SET version = greatest(f.version, excluded.version)
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION seatlink_raise_version_floor() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM seatlink_raise_version_floor_to(TG_TABLE_NAME::text, pg_current_xact_id()::text::bigint);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION seatlink_record_removed_tickets() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO removed_tickets AS r (ticket_id, user_id, version, removed_at)
  SELECT g.id, g.user_id, pg_current_xact_id()::text::bigint, now() FROM gone g
  ON CONFLICT (ticket_id) DO UPDATE
    SET user_id = excluded.user_id, version = excluded.version, removed_at = excluded.removed_at;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "tickets_version" BEFORE INSERT OR UPDATE ON "tickets"
  FOR EACH ROW EXECUTE FUNCTION seatlink_stamp_version();--> statement-breakpoint
CREATE TRIGGER "tickets_removed" AFTER DELETE ON "tickets" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION seatlink_record_removed_tickets();--> statement-breakpoint
CREATE TRIGGER "tickets_floor" AFTER TRUNCATE ON "tickets"
  FOR EACH STATEMENT EXECUTE FUNCTION seatlink_raise_version_floor();--> statement-breakpoint
CREATE TRIGGER "removed_tickets_floor" AFTER TRUNCATE ON "removed_tickets"
  FOR EACH STATEMENT EXECUTE FUNCTION seatlink_raise_version_floor();--> statement-breakpoint
CREATE TRIGGER "pass_groups_version" BEFORE INSERT OR UPDATE ON "pass_groups"
  FOR EACH ROW EXECUTE FUNCTION seatlink_stamp_version();--> statement-breakpoint
CREATE TRIGGER "pass_groups_floor" AFTER TRUNCATE ON "pass_groups"
  FOR EACH STATEMENT EXECUTE FUNCTION seatlink_raise_version_floor();--> statement-breakpoint
CREATE TRIGGER "links_version" BEFORE INSERT OR UPDATE ON "links"
  FOR EACH ROW EXECUTE FUNCTION seatlink_stamp_version();--> statement-breakpoint
CREATE TRIGGER "links_floor" AFTER TRUNCATE ON "links"
  FOR EACH STATEMENT EXECUTE FUNCTION seatlink_raise_version_floor();
