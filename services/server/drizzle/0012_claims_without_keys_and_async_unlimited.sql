-- seatlink_claim_link (0010) again, with two changes:
-- * A batch without Idempotency-Keys (the API's own claims, and every claim of a client that sends none) is counted
--   without the per-key statement: the first claims the limit leaves room for, in order.
-- * An unlimited link's claims commit without waiting for the WAL to reach the disk (synchronous_commit off for that
--   transaction alone): its count decides nothing, so a crash of the database server may lose the last fraction of a
--   second of such counts (never more than that, and the database stays consistent; the click events, written later
--   with a durable commit, never outnumber the count). A limited link's claims, whose count is a promise to its owner,
--   wait for the disk as before.
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
  -- An unlimited link's count limits nothing: its commit need not wait for the disk (below).
  IF v_link.max_clicks IS NULL THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  SELECT true, t.save_url INTO v_ticket_held, v_save_url FROM tickets t WHERE t.id = v_link.ticket_id;
  v_state := CASE
    WHEN v_link.recalled_at IS NOT NULL OR v_ticket_held IS NULL THEN 'recalled'
    WHEN v_link.expires_at IS NOT NULL AND v_link.expires_at <= now() THEN 'expired'
    WHEN v_link.max_clicks IS NOT NULL AND v_link.clicks >= v_link.max_clicks THEN 'limit_reached'
    ELSE 'active' END;

  IF cardinality(array_remove(p_keys, NULL)) = 0 THEN
    -- No keys (or no claims): the first claims the limit leaves room for are counted, in order.
    v_given := CASE WHEN v_state <> 'active' THEN 0
                    WHEN v_link.max_clicks IS NULL THEN cardinality(p_keys)
                    ELSE greatest(0, least(cardinality(p_keys), v_link.max_clicks - v_link.clicks)) END;
    v_clicks := ARRAY(SELECT CASE WHEN g.i <= v_given THEN v_link.clicks + g.i END
                      FROM generate_series(1, cardinality(p_keys)) AS g(i) ORDER BY g.i);
  ELSE
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
  END IF;

  IF v_given > 0 THEN
    UPDATE links l SET clicks = l.clicks + v_given, last_click_at = date_trunc('milliseconds', now())
    WHERE l.distribution_id = v_link.distribution_id
    RETURNING l.last_click_at INTO v_link.last_click_at;
  END IF;

  RETURN QUERY SELECT v_link.distribution_id, v_link.ticket_id, v_link.user_id, v_state, v_link.clicks,
    v_link.clicks + v_given, v_link.last_click_at, v_save_url, v_clicks;
END
$$;
