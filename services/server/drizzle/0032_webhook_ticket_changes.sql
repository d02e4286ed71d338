CREATE TABLE "webhook_ticket_changes" (
	"endpoint_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"seq" bigserial NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"ticket_id" uuid NOT NULL,
	"item" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"batch_event_id" uuid,
	CONSTRAINT "webhook_ticket_changes_endpoint_id_event_id_pk" PRIMARY KEY("endpoint_id","event_id")
);
--> statement-breakpoint
CREATE INDEX "webhook_ticket_changes_waiting_idx" ON "webhook_ticket_changes" USING btree ("account_id","endpoint_id","seq") WHERE batch_event_id is null;--> statement-breakpoint
CREATE INDEX "webhook_ticket_changes_due_idx" ON "webhook_ticket_changes" USING btree ("recorded_at") WHERE batch_event_id is null;--> statement-breakpoint
CREATE INDEX "webhook_ticket_changes_recorded_idx" ON "webhook_ticket_changes" USING btree ("recorded_at");