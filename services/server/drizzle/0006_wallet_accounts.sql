CREATE TABLE "pass_groups" (
	"dedupe_key" text PRIMARY KEY NOT NULL,
	"master_ticket_id" uuid,
	"holders" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"pass_id" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"logo" text,
	"venue_name" text,
	"section" text,
	"row" text,
	"seat" text,
	"next_game" text,
	"next_game_date" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"display_name" text NOT NULL,
	"provider_account_id" text NOT NULL,
	"in_error_state" boolean DEFAULT false NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_credentials" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"sealed_token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_sync_state" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"last_synced_at" timestamp with time zone,
	"running_until" timestamp with time zone,
	"last_sync_error" text
);
--> statement-breakpoint
CREATE INDEX "tickets_user_idx" ON "tickets" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tickets_account_idx" ON "tickets" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "tickets_dedupe_idx" ON "tickets" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "wallet_accounts_user_idx" ON "wallet_accounts" USING btree ("user_id");