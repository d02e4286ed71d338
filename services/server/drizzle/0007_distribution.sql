CREATE TABLE "audit_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"event_type" text NOT NULL,
	"status" text NOT NULL,
	"ticket_id" text,
	"distribution_id" text,
	"ip_address" text,
	"bulk_action" boolean NOT NULL,
	"event_data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "link_click_minutes" (
	"distribution_id" uuid NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"clicks" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "links" (
	"distribution_id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"ticket_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"max_clicks" integer,
	"expires_at" timestamp with time zone,
	"recalled_at" timestamp with time zone,
	"clicks" integer DEFAULT 0 NOT NULL,
	"last_click_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "save_url" text;--> statement-breakpoint
CREATE INDEX "audit_user_time_idx" ON "audit_entries" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_user_ticket_idx" ON "audit_entries" USING btree ("user_id","ticket_id" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "audit_user_distribution_idx" ON "audit_entries" USING btree ("user_id","distribution_id" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "audit_user_ip_idx" ON "audit_entries" USING btree ("user_id","ip_address" text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "link_click_minutes_key" ON "link_click_minutes" USING btree ("distribution_id","minute");--> statement-breakpoint
CREATE UNIQUE INDEX "links_code_idx" ON "links" USING btree ("code");--> statement-breakpoint
CREATE INDEX "links_live_ticket_idx" ON "links" USING btree ("ticket_id") WHERE recalled_at is null;--> statement-breakpoint
CREATE INDEX "links_user_idx" ON "links" USING btree ("user_id");