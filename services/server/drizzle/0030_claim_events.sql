CREATE TABLE "click_outbox" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"stream_id" text NOT NULL,
	"position" integer NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "click_outbox_created_idx" ON "click_outbox" USING btree ("created_at");--> statement-breakpoint
-- A claim now records its click events in the transaction that counts them (distribution.routines.ts): the function
-- takes where to write them, so the one of three parameters goes (the routines applied after the migrations make the
-- new one).
DROP FUNCTION IF EXISTS seatlink_claim_link(text, text[], text);
