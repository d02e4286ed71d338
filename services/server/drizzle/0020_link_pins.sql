ALTER TABLE "link_counters" ADD COLUMN "pin_hash" text;--> statement-breakpoint
ALTER TABLE "link_counters" ADD COLUMN "pin_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "has_pin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "pin_locked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The claim function takes the hash of a PIN checked by the process (distribution.routines.ts, applied after the
-- migrations): its two-argument form goes, so a call is never ambiguous between the two.
DROP FUNCTION IF EXISTS seatlink_claim_link(text, text[]);
