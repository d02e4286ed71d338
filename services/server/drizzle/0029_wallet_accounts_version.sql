ALTER TABLE "wallet_accounts" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- wallet_accounts is versioned as the tickets' answer reads it (its e-mail): a new row, or a new e-mail, is stamped with
-- the writing transaction, any other write keeps the version (the function's source is wallet-accounts.routines.ts,
-- which every start applies again); a TRUNCATE (a rebuild) raises its floor.
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
$$;--> statement-breakpoint
CREATE TRIGGER "wallet_accounts_version" BEFORE INSERT OR UPDATE ON "wallet_accounts"
  FOR EACH ROW EXECUTE FUNCTION seatlink_stamp_account_version();--> statement-breakpoint
CREATE TRIGGER "wallet_accounts_floor" AFTER TRUNCATE ON "wallet_accounts"
  FOR EACH STATEMENT EXECUTE FUNCTION seatlink_raise_version_floor();
