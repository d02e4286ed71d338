CREATE TABLE "user_streams" (
	"user_id" uuid NOT NULL,
	"stream_id" text NOT NULL,
	"kind" text NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	CONSTRAINT "user_streams_user_id_stream_id_pk" PRIMARY KEY("user_id","stream_id")
);
--> statement-breakpoint
CREATE INDEX "user_streams_user_time_idx" ON "user_streams" USING btree ("user_id","first_at");