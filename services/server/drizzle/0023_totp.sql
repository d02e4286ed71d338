CREATE TABLE "user_totp" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"confirmed" boolean DEFAULT false NOT NULL,
	"last_used_step" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
