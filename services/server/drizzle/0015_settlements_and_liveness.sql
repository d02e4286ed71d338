CREATE TABLE "distribution_settlements" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"command_id" text NOT NULL,
	"links" jsonb NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "owner" integer;--> statement-breakpoint
CREATE INDEX "distribution_settlements_due_idx" ON "distribution_settlements" USING btree ("due_at");