-- A sync that gave up shows on its account (sync_error, until a sync goes through), and so does the number of passes
-- the last sync had to leave out (skipped_passes); failed_attempts counts a sync's failed tries in a row.
ALTER TABLE "wallet_accounts" ADD COLUMN "sync_error" text;--> statement-breakpoint
ALTER TABLE "wallet_accounts" ADD COLUMN "skipped_passes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_sync_state" ADD COLUMN "failed_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Provider text already in the read models loses its control and bidirectional formatting characters, as the
-- projections now drop them (a rebuild gives the same): line breaks become a space, the rest goes.
CREATE FUNCTION seatlink_clean_provider_text(p text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT btrim(regexp_replace(
    regexp_replace(
      regexp_replace(p, '[\t\n\v\f\r\u0085\u2028\u2029]', ' ', 'g'),
      '[\u0001-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\uFEFF]', '', 'g'),
    ' {2,}', ' ', 'g'))
$$;--> statement-breakpoint
UPDATE "tickets" SET
  "title" = seatlink_clean_provider_text("title"),
  "subtitle" = nullif(seatlink_clean_provider_text("subtitle"), ''),
  "venue_name" = nullif(seatlink_clean_provider_text("venue_name"), ''),
  "section" = nullif(seatlink_clean_provider_text("section"), ''),
  "row" = nullif(seatlink_clean_provider_text("row"), ''),
  "seat" = nullif(seatlink_clean_provider_text("seat"), ''),
  "next_game" = nullif(seatlink_clean_provider_text("next_game"), '')
WHERE concat_ws(' ', "title", "subtitle", "venue_name", "section", "row", "seat", "next_game")
  ~ '[\u0001-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\uFEFF\u2028\u2029]';--> statement-breakpoint
UPDATE "wallet_accounts" SET
  "first_name" = seatlink_clean_provider_text("first_name"),
  "last_name" = seatlink_clean_provider_text("last_name"),
  "display_name" = seatlink_clean_provider_text("display_name")
WHERE concat_ws(' ', "first_name", "last_name", "display_name")
  ~ '[\u0001-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\uFEFF\u2028\u2029]';--> statement-breakpoint
DROP FUNCTION seatlink_clean_provider_text(text);
