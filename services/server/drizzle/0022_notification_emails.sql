CREATE TABLE "notification_mail_marks" (
	"notification_id" uuid PRIMARY KEY NOT NULL,
	"emailed_count" integer DEFAULT 0 NOT NULL,
	"digested_count" integer DEFAULT 0 NOT NULL,
	"marked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_mail_state" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"unsubscribe_token" text NOT NULL,
	"digest_sent_on" text
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email" jsonb NOT NULL,
	"since" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
CREATE INDEX "notification_mail_marks_marked_idx" ON "notification_mail_marks" USING btree ("marked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_mail_state_token_idx" ON "notification_mail_state" USING btree ("unsubscribe_token");