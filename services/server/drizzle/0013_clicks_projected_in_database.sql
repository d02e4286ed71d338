-- The minute of a click, for the click timeline: its `at` as the process writes it (ISO 8601 in UTC, e.g.
-- 2026-11-22T20:20:25.123Z), truncated to the minute. Any other shape is an error (the projection in the process then
-- judges the event, as it would have without this function).
CREATE OR REPLACE FUNCTION seatlink_click_minute(p_at text) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF p_at IS NULL OR p_at !~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$' THEN
    RAISE EXCEPTION 'not a click time: %', left(p_at, 100) USING ERRCODE = '22007';
  END IF;
  RETURN date_trunc('minute', p_at::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
END
$$;
--> statement-breakpoint
-- The link-click-timeline projection, applied inside the database (its `inDatabase` function): the clicks after a
-- feed position (at most p_limit, read gap-safe by seatlink_read_feed_for) summed per link and minute into
-- link_click_minutes, without reading them into the process. Answers where it read up to, how many clicks it applied
-- and whether more may be readable at once; no row when nothing new is readable.
CREATE OR REPLACE FUNCTION seatlink_project_link_click_minutes(p_epoch integer, p_tx bigint, p_pos bigint,
                                                               p_limit integer)
RETURNS TABLE (o_epoch integer, o_tx bigint, o_pos bigint, o_applied integer, o_more boolean)
LANGUAGE sql AS $$
  WITH page AS MATERIALIZED (
    SELECT e.epoch, e.transaction_id, e.global_position, e.type, e.data
    FROM seatlink_read_feed_for(p_epoch, p_tx, p_pos, p_limit, ARRAY['LinkClicked']) AS e
  ), sums AS (
    SELECT (p.data->>'distributionId')::uuid AS distribution_id, seatlink_click_minute(p.data->>'at') AS minute,
           count(*)::integer AS clicks
    FROM page p WHERE p.type = 'LinkClicked'
    GROUP BY 1, 2
  ), upserted AS (
    INSERT INTO link_click_minutes AS m (distribution_id, minute, clicks)
    SELECT s.distribution_id, s.minute, s.clicks FROM sums s
    ON CONFLICT (distribution_id, minute) DO UPDATE SET clicks = m.clicks + excluded.clicks
  ), applied AS (
    SELECT count(*)::integer AS n FROM page p WHERE p.type = 'LinkClicked'
  )
  SELECT l.epoch, l.transaction_id, l.global_position, a.n, a.n >= p_limit
  FROM (SELECT * FROM page ORDER BY epoch DESC, transaction_id DESC, global_position DESC LIMIT 1) AS l, applied a
$$;
--> statement-breakpoint
-- The click counts of the links projection, applied inside the database: the clicks after a feed position raise
-- their link's count (and last click) when it is lower — a rebuild; live, the claim has raised it already — without
-- being read into the process. The links' other events (TicketDistributed, TicketRecalled) are left to the process:
-- the clicks before the first of them are applied and the checkpoint stops there (more follow at once); a page that
-- starts with one is answered with a row without a position (the process applies that page).
CREATE OR REPLACE FUNCTION seatlink_project_link_clicks(p_epoch integer, p_tx bigint, p_pos bigint, p_limit integer)
RETURNS TABLE (o_epoch integer, o_tx bigint, o_pos bigint, o_applied integer, o_more boolean)
LANGUAGE sql AS $$
  WITH page AS MATERIALIZED (
    SELECT e.epoch, e.transaction_id, e.global_position, e.type, e.data
    FROM seatlink_read_feed_for(p_epoch, p_tx, p_pos, p_limit,
                                ARRAY['TicketDistributed', 'TicketRecalled', 'LinkClicked']) AS e
  ), stop AS (
    SELECT p.epoch, p.transaction_id, p.global_position FROM page p
    WHERE p.type IN ('TicketDistributed', 'TicketRecalled')
    ORDER BY p.epoch, p.transaction_id, p.global_position
    LIMIT 1
  ), taken AS (
    SELECT p.* FROM page p
    WHERE NOT EXISTS (SELECT 1 FROM stop s
                      WHERE (p.epoch, p.transaction_id, p.global_position)
                            >= (s.epoch, s.transaction_id, s.global_position))
  ), highest AS (
    SELECT DISTINCT ON (1) (t.data->>'distributionId')::uuid AS distribution_id, (t.data->>'n')::integer AS n,
           (t.data->>'at')::timestamptz AS at
    FROM taken t WHERE t.type = 'LinkClicked'
    ORDER BY 1, 2 DESC
  ), raised AS (
    UPDATE links l SET clicks = h.n, last_click_at = greatest(l.last_click_at, h.at)
    FROM highest h
    WHERE l.distribution_id = h.distribution_id AND l.clicks < h.n
  ), applied AS (
    SELECT count(*)::integer AS n FROM taken t WHERE t.type = 'LinkClicked'
  )
  SELECT l.epoch, l.transaction_id, l.global_position, a.n, a.n >= p_limit OR EXISTS (SELECT 1 FROM stop)
  FROM (SELECT * FROM taken ORDER BY epoch DESC, transaction_id DESC, global_position DESC LIMIT 1) AS l, applied a
  UNION ALL
  SELECT NULL, NULL, NULL, 0, true
  WHERE NOT EXISTS (SELECT 1 FROM taken) AND EXISTS (SELECT 1 FROM stop)
$$;
