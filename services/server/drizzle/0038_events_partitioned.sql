-- The event log becomes a partitioned table (docs/architecture.md, "The event log's partitions"):
--   events                       partitioned by whether the stream is a link's clicks (starts_with 'link-clicks-')
--   ├── events_main              every other stream: the table as it was, its keys and rows kept
--   └── events_claims            the claims' click events, partitioned by month of created_at
--       ├── events_claims_YYYY_MM   made ahead of need (seatlink_make_claim_partitions, at start and by a job)
--       └── events_claims_default   what no month takes (normally empty; a month made later takes its rows)
-- A stream lives in one branch, so events_main's keys still make positions and event ids unique as before; a click
-- stream's positions are its link's counter (link_counters), taken under that row's lock, and each month keeps them
-- unique too. The functions that answer rows of the table's type are made again by the routines after this.
DROP FUNCTION IF EXISTS seatlink_read_all(integer, bigint, bigint, integer);--> statement-breakpoint
DROP FUNCTION IF EXISTS seatlink_read_feed_for(integer, bigint, bigint, integer, text[]);--> statement-breakpoint
ALTER TABLE "events" RENAME TO "events_main";--> statement-breakpoint
ALTER TABLE "events_main" RENAME CONSTRAINT "events_pkey" TO "events_main_pkey";--> statement-breakpoint
ALTER TABLE "events_main" RENAME CONSTRAINT "events_event_id_key" TO "events_main_event_id_key";--> statement-breakpoint
ALTER INDEX "events_feed_idx" RENAME TO "events_main_feed_idx";--> statement-breakpoint
ALTER INDEX "events_type_feed_idx" RENAME TO "events_main_type_feed_idx";--> statement-breakpoint
CREATE TABLE "events" (
	"global_position" bigint DEFAULT nextval('events_global_position_seq') NOT NULL,
	"transaction_id" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL,
	"stream_id" text NOT NULL,
	"stream_position" integer NOT NULL,
	"event_id" uuid NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"epoch" integer DEFAULT 0 NOT NULL
) PARTITION BY LIST ((starts_with("stream_id", 'link-clicks-')));--> statement-breakpoint
ALTER SEQUENCE "events_global_position_seq" OWNED BY "events"."global_position";--> statement-breakpoint
CREATE INDEX "events_feed_idx" ON "events" USING btree ("epoch","transaction_id","global_position");--> statement-breakpoint
CREATE INDEX "events_type_feed_idx" ON "events" USING btree ("type","epoch","transaction_id","global_position");--> statement-breakpoint
CREATE TABLE "events_claims" PARTITION OF "events" FOR VALUES IN (true) PARTITION BY RANGE ("created_at");--> statement-breakpoint
CREATE TABLE "events_claims_default" PARTITION OF "events_claims" DEFAULT;--> statement-breakpoint
CREATE UNIQUE INDEX "events_claims_default_stream_key" ON "events_claims_default" USING btree ("stream_id","stream_position");--> statement-breakpoint
CREATE UNIQUE INDEX "events_claims_default_event_id_key" ON "events_claims_default" USING btree ("event_id");--> statement-breakpoint
-- The clicks recorded so far go to the claims' branch (its default partition; the months made at start take them).
INSERT INTO "events_claims" ("global_position", "transaction_id", "stream_id", "stream_position", "event_id", "type",
                             "data", "metadata", "created_at", "epoch")
SELECT "global_position", "transaction_id", "stream_id", "stream_position", "event_id", "type", "data", "metadata",
       "created_at", "epoch"
FROM "events_main" WHERE starts_with("stream_id", 'link-clicks-');--> statement-breakpoint
DELETE FROM "events_main" WHERE starts_with("stream_id", 'link-clicks-');--> statement-breakpoint
ALTER TABLE "events" ATTACH PARTITION "events_main" FOR VALUES IN (false);
