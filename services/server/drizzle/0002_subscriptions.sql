CREATE TABLE "event_store_meta" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"epoch" integer DEFAULT 0 NOT NULL,
	"rebased_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"scope_hash" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"status_code" integer,
	"body" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text,
	"html" text,
	"link" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "parked_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"subscription" text NOT NULL,
	"event_id" uuid NOT NULL,
	"position" text NOT NULL,
	"stream_id" text NOT NULL,
	"event_type" text NOT NULL,
	"stream_revision" integer NOT NULL,
	"event_data" jsonb NOT NULL,
	"event_metadata" jsonb NOT NULL,
	"event_created_at" timestamp with time zone NOT NULL,
	"error" text NOT NULL,
	"attempts" integer NOT NULL,
	"parked_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'parked' NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	CONSTRAINT "parked_events_subscription_event_key" UNIQUE("subscription","event_id")
);
--> statement-breakpoint
CREATE TABLE "subscription_checkpoints" (
	"name" text PRIMARY KEY NOT NULL,
	"position" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_hosts" (
	"role" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"acquired_at" timestamp with time zone NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "events_feed_idx";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "epoch" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "parked_events_status_idx" ON "parked_events" USING btree ("status");--> statement-breakpoint
CREATE INDEX "events_feed_idx" ON "events" USING btree ("epoch","transaction_id","global_position");