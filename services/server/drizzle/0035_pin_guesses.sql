-- Wrong PINs lock a link no more (docs/reference.md "Link PINs"): they are counted per link in windows
-- (pin_failures since pin_failures_since) to tell the owner of repeated ones, and the links read model's lock flag goes
-- (a link locked before opens again with its PIN; the API's pin_locked is always false).
ALTER TABLE "link_counters" ADD COLUMN "pin_failures_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "links" DROP COLUMN "pin_locked";