CREATE TABLE "recipient_mail_key" (
	"id" integer PRIMARY KEY NOT NULL,
	"secret" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recipient_mails" (
	"event_id" text NOT NULL,
	"kind" text NOT NULL,
	"distribution_id" uuid NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "recipient_mails_pkey" PRIMARY KEY("event_id","kind")
);
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "recipient_name" text;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "recipient_email" text;