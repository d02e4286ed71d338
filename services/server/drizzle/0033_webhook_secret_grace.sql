-- A rolled signing secret may keep signing beside the new one for a grace its owner chose (docs/reference.md
-- "Webhooks"): the endpoints read model shows until when, and the fan-out's routes keep the secret it replaced.
ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secret_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_routes" ADD COLUMN "previous_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "webhook_routes" ADD COLUMN "previous_secret_until" timestamp with time zone;