CREATE TABLE "link_claim_keys" (
	"distribution_id" uuid NOT NULL,
	"key" text NOT NULL,
	"n" integer NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "link_claim_keys_pkey" PRIMARY KEY("distribution_id","key")
);
--> statement-breakpoint
CREATE INDEX "link_claim_keys_claimed_idx" ON "link_claim_keys" USING btree ("claimed_at");--> statement-breakpoint
-- Counts a batch of claims of one link, in one call, under the link's row lock (a link gives at most max_clicks
-- clicks, however many API processes claim at once). p_keys has one element per claim: its Idempotency-Key, or NULL.
-- A key already given a click (by an earlier call, or earlier in this batch) is answered with that click again and
-- counts nothing — unless the link was recalled since; every other claim is counted, in order, while the link is live
-- and its limit leaves room. A counted key is kept (link_claim_keys); a refused one is not, so its retry is judged
-- again. Answers one row, none for an unknown code: the link, its state before the batch, the count before and after,
-- and per claim the click it was given (NULL: refused).
CREATE OR REPLACE FUNCTION seatlink_claim_link(p_code text, p_keys text[])
RETURNS TABLE (distribution_id uuid, ticket_id uuid, user_id uuid, state text, before integer, after integer,
               last_click_at timestamptz, save_url text, clicks integer[])
LANGUAGE plpgsql AS $$
DECLARE
  v_link links%ROWTYPE;
  v_ticket_held boolean;
  v_save_url text;
  v_state text;
  v_given integer;
  v_clicks integer[];
BEGIN
  SELECT * INTO v_link FROM links l WHERE l.code = p_code FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT true, t.save_url INTO v_ticket_held, v_save_url FROM tickets t WHERE t.id = v_link.ticket_id;
  v_state := CASE
    WHEN v_link.recalled_at IS NOT NULL OR v_ticket_held IS NULL THEN 'recalled'
    WHEN v_link.expires_at IS NOT NULL AND v_link.expires_at <= now() THEN 'expired'
    WHEN v_link.max_clicks IS NOT NULL AND v_link.clicks >= v_link.max_clicks THEN 'limit_reached'
    ELSE 'active' END;

  WITH c AS (
    SELECT u.k, u.i FROM unnest(p_keys) WITH ORDINALITY AS u(k, i)
  ), firsts AS (
    SELECT DISTINCT ON (c.k) c.k, c.i FROM c WHERE c.k IS NOT NULL ORDER BY c.k, c.i
  ), known AS (
    -- One lookup by (link, key) each: a plan that scans the link's keys for the batch's would read them all.
    SELECT f.k, f.n FROM (
      SELECT firsts.k, (SELECT lk.n FROM link_claim_keys lk
                        WHERE lk.distribution_id = v_link.distribution_id AND lk.key = firsts.k) AS n
      FROM firsts
    ) f
    WHERE f.n IS NOT NULL
  ), fresh AS (
    SELECT c.i, c.k, v_link.clicks + (row_number() OVER (ORDER BY c.i))::integer AS n FROM c
    WHERE c.k IS NULL OR (c.i IN (SELECT firsts.i FROM firsts) AND c.k NOT IN (SELECT known.k FROM known))
  ), given AS (
    SELECT fresh.i, fresh.k, fresh.n FROM fresh
    WHERE v_state = 'active' AND (v_link.max_clicks IS NULL OR fresh.n <= v_link.max_clicks)
  ), kept AS (
    INSERT INTO link_claim_keys (distribution_id, key, n, claimed_at)
    SELECT v_link.distribution_id, given.k, given.n, now() FROM given WHERE given.k IS NOT NULL
    ON CONFLICT DO NOTHING
  )
  SELECT (SELECT count(*) FROM given)::integer,
         coalesce(array_agg(coalesce(g.n, gk.n, CASE WHEN v_state <> 'recalled' THEN kn.n END) ORDER BY c.i), '{}')
  INTO v_given, v_clicks
  FROM c
  LEFT JOIN given g ON g.i = c.i
  LEFT JOIN given gk ON gk.k = c.k
  LEFT JOIN known kn ON kn.k = c.k;

  IF v_given > 0 THEN
    UPDATE links l SET clicks = l.clicks + v_given, last_click_at = date_trunc('milliseconds', now())
    WHERE l.distribution_id = v_link.distribution_id
    RETURNING l.last_click_at INTO v_link.last_click_at;
  END IF;

  RETURN QUERY SELECT v_link.distribution_id, v_link.ticket_id, v_link.user_id, v_state, v_link.clicks,
    v_link.clicks + v_given, v_link.last_click_at, v_save_url, v_clicks;
END
$$;
