CREATE TABLE "link_activity_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"opens" integer DEFAULT 0 NOT NULL,
	"claims" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "link_activity_days_pkey" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "link_open_devices" (
	"distribution_id" uuid NOT NULL,
	"device_hash" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	CONSTRAINT "link_open_devices_pkey" PRIMARY KEY("distribution_id","device_hash")
);
--> statement-breakpoint
CREATE TABLE "link_open_minutes" (
	"distribution_id" uuid NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"opens" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "link_open_totals" (
	"distribution_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"opens" integer NOT NULL,
	"last_open_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "link_open_minutes_key" ON "link_open_minutes" USING btree ("distribution_id","minute");--> statement-breakpoint
CREATE INDEX "link_open_totals_user_idx" ON "link_open_totals" USING btree ("user_id","opens");--> statement-breakpoint
CREATE INDEX "links_user_unclaimed_expiry_idx" ON "links" USING btree ("user_id","expires_at") WHERE recalled_at is null and clicks = 0 and expires_at is not null;