ALTER TABLE "link_counters" ADD COLUMN "settings_revision" integer DEFAULT -1 NOT NULL;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "label" text;