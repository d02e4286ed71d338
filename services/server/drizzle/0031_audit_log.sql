-- audit_entries, a read model, now holds everything that moved money, access or a link (a link's claims per hour), is
-- read with the names of audit_names, and belongs to the audit module. It is emptied and the audit-log projection's
-- checkpoint moved back to the start, as `npm run replay -- audit-log` does: the process running the subscriptions
-- rebuilds it from the events, so what happened before this migration is in the log too.
TRUNCATE "audit_entries";--> statement-breakpoint
UPDATE "subscription_checkpoints" SET "position" = NULL, "updated_at" = now() WHERE "name" = 'audit-log';--> statement-breakpoint
DELETE FROM "parked_events" WHERE "subscription" = 'audit-log' AND "status" <> 'skipped';--> statement-breakpoint
CREATE TABLE "audit_names" (
	"kind" text NOT NULL,
	"id" text NOT NULL,
	"name" text,
	"detail" text,
	CONSTRAINT "audit_names_pkey" PRIMARY KEY("kind","id")
);
--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "kind" text NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "actor_id" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "subject_id" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "last_at" timestamp with time zone;
