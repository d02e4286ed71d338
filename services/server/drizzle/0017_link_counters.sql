-- The claim path's state of its own (link_counters): what a claim decides on and counts, which no rebuild empties.
-- seatlink_claim_link counts on it from now on; its definition is the distribution module's (distribution.routines.ts).
CREATE TABLE "link_counters" (
	"distribution_id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"ticket_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"max_clicks" integer,
	"expires_at" timestamp with time zone,
	"recalled_at" timestamp with time zone,
	"clicks" integer DEFAULT 0 NOT NULL,
	"last_click_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "link_counters_code_idx" ON "link_counters" USING btree ("code");--> statement-breakpoint
-- Each link's counter from its row in `links`, which was the counter until now; a count the row lacks but the click
-- events have (a rebuild of `links` under way) is taken from the events. From here on `links` is a read model only.
INSERT INTO "link_counters" ("distribution_id", "code", "ticket_id", "user_id", "max_clicks", "expires_at",
                             "recalled_at", "clicks", "last_click_at")
SELECT l.distribution_id, l.code, l.ticket_id, l.user_id, l.max_clicks, l.expires_at, l.recalled_at,
       greatest(l.clicks, coalesce((SELECT max(e.stream_position) + 1 FROM events e
                                    WHERE e.stream_id = 'link-clicks-' || l.distribution_id::text), 0)),
       l.last_click_at
FROM "links" l
ON CONFLICT DO NOTHING;
