-- A recipient may say who they are when they claim, and their device is recorded with the click (docs/reference.md
-- "Link"): the owner's list shows who made a link's last click. The claim function takes the claimants beside the
-- keys: the one with the old arguments goes (the routines are not overloaded; the new one is applied after this).
ALTER TABLE "links" ADD COLUMN "last_claim_name" text;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "last_claim_device" text;--> statement-breakpoint
DROP FUNCTION IF EXISTS seatlink_claim_link(text, text[], text, boolean);
