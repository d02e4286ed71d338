-- Claims of months past the retention are compacted (docs/architecture.md, "Compacted claims"): a month's click events
-- become one row per stream, hour and type here, holding every event whole (its position in the stream and in the
-- feed, id, time, data and metadata), and the month's partition is detached in the same transaction. The feed and
-- stream reads give them back as the events they were, where they were.
CREATE TABLE "events_compacted" (
	"stream_id" text NOT NULL,
	"first_position" integer NOT NULL,
	"last_position" integer NOT NULL,
	"type" text NOT NULL,
	"epoch" integer NOT NULL,
	-- The row's first and last feed positions as one ordered key each (seatlink_feed_key), as a range; the first
	-- alone, and how many events the row holds (a page takes rows in the order of their first event, as many as it
	-- needs).
	"span" numrange NOT NULL,
	"first_key" numeric NOT NULL,
	"n" integer NOT NULL,
	-- The data fields every event of the chunk has the same: each event keeps only the rest.
	"common" jsonb NOT NULL,
	-- [stream position, transaction id, global position, event id, created_at, data (the rest), metadata or null], …
	"events" jsonb NOT NULL,
	"source" text NOT NULL,
	"compacted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_compacted_pkey" PRIMARY KEY("stream_id","first_position")
);--> statement-breakpoint
CREATE INDEX "events_compacted_span_idx" ON "events_compacted" USING gist ("span");--> statement-breakpoint
CREATE INDEX "events_compacted_first_key_idx" ON "events_compacted" USING btree ("first_key");
