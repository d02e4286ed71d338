-- A stream's revision is its last position: the key (stream_id, stream_position) refuses a second append at a taken
-- position, so no table of streams is locked and updated on every append.
DROP TABLE "event_streams" CASCADE;--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_stream_position_key";--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_pkey";--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_pkey" PRIMARY KEY("stream_id","stream_position");
