-- The feed's epoch (one row) and the subscriptions' checkpoints, carried over from the single projector of before.
INSERT INTO "event_store_meta" ("id", "epoch") VALUES (1, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "subscription_checkpoints" ("name", "position", "updated_at")
SELECT n.name, c.position, c.updated_at
FROM "projection_checkpoints" c
CROSS JOIN (VALUES ('users'), ('balances'), ('invite-codes'), ('waitlist')) AS n(name)
WHERE c.name = 'read-models'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Fails the statement that calls it: an append that could take only some of its positions (another append holds the
-- others) must insert none. SQLSTATE 40001, as a serialization failure: the caller reads again and retries.
CREATE OR REPLACE FUNCTION seatlink_refuse_partial_append(p_stream text)
RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'another append to stream % took part of these positions', p_stream USING ERRCODE = '40001';
END
$$;
--> statement-breakpoint
-- After an append was refused (a taken position or event id): whether these very ids were appended to this stream
-- before, at consecutive positions in this order (a repeated append: answers its last event), or not (no row).
CREATE OR REPLACE FUNCTION seatlink_find_append(p_stream text, p_ids uuid[])
RETURNS TABLE (out_revision integer, out_epoch integer, out_tx bigint, out_pos bigint)
LANGUAGE sql STABLE AS $$
  WITH wanted AS (
    SELECT w.id, w.i FROM unnest(p_ids) WITH ORDINALITY AS w(id, i)
  ), found AS (
    SELECT w.i, e.stream_id, e.stream_position, e.epoch, e.transaction_id, e.global_position
    FROM wanted w LEFT JOIN events e ON e.event_id = w.id
  )
  SELECT f.stream_position, f.epoch, f.transaction_id, f.global_position
  FROM found f
  WHERE f.i = cardinality(p_ids)
    AND NOT EXISTS (
      SELECT 1 FROM found g
      WHERE g.stream_id IS DISTINCT FROM p_stream
         OR g.stream_position <> (SELECT h.stream_position FROM found h WHERE h.i = 1) + g.i - 1
    );
$$;
--> statement-breakpoint
-- Reads the feed after a position, gap-safe: only transactions that can no longer commit an event before the ones
-- returned are shown. The bound is the oldest transaction still open in THIS database (not the whole cluster: a long
-- transaction in another database must not stall the feed), taken in a statement of its own before the read, so a
-- transaction that commits in between is either counted in the bound or visible to the read.
-- Call it outside an explicit transaction (each call then sees the activity of that moment).
CREATE OR REPLACE FUNCTION seatlink_read_all(p_epoch integer, p_tx bigint, p_pos bigint, p_limit integer)
RETURNS SETOF events
LANGUAGE plpgsql AS $$
DECLARE
  v_bound bigint;
  v_epoch integer;
BEGIN
  PERFORM pg_stat_clear_snapshot();
  -- pg_stat_activity and pg_prepared_xacts show 32-bit xids; the snapshot's list of running transactions has them
  -- whole (64-bit, as transaction_id is), so each of this database's is taken from there.
  SELECT least(
    pg_snapshot_xmax(s.snap)::text::bigint,
    (SELECT min(x::text::bigint) FROM pg_snapshot_xip(s.snap) AS x
      WHERE (x::text::bigint % 4294967296) IN (
        SELECT a.backend_xid::text::bigint FROM pg_stat_activity a
        WHERE a.backend_xid IS NOT NULL
          AND a.datid = (SELECT d.oid FROM pg_database d WHERE d.datname = current_database())
        UNION ALL
        SELECT p.transaction::text::bigint FROM pg_prepared_xacts p WHERE p.database = current_database())))
  INTO v_bound
  FROM (SELECT pg_current_snapshot() AS snap) AS s;
  SELECT m.epoch INTO v_epoch FROM event_store_meta m WHERE m.id = 1;
  RETURN QUERY
    SELECT e.* FROM events e
    WHERE (e.epoch, e.transaction_id, e.global_position) > (p_epoch, p_tx, p_pos)
      AND (e.epoch, e.transaction_id, e.global_position) < (coalesce(v_epoch, 0), v_bound, 0::bigint)
    ORDER BY e.epoch, e.transaction_id, e.global_position
    LIMIT p_limit;
END
$$;
--> statement-breakpoint
-- Raises the epoch when the newest events of the current one carry transaction ids the cluster has not reached yet:
-- the database was restored into another cluster (pg_dump/pg_restore), whose ids start again from low numbers.
-- New events then sort after every restored one. Answers the epoch in force.
CREATE OR REPLACE FUNCTION seatlink_rebase_if_restored()
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_epoch integer;
  v_max bigint;
BEGIN
  INSERT INTO event_store_meta (id, epoch) VALUES (1, 0) ON CONFLICT DO NOTHING;
  SELECT m.epoch INTO v_epoch FROM event_store_meta m WHERE m.id = 1 FOR UPDATE;
  SELECT max(e.transaction_id) INTO v_max FROM events e WHERE e.epoch = v_epoch;
  IF v_max IS NOT NULL AND v_max >= pg_snapshot_xmax(pg_current_snapshot())::text::bigint THEN
    v_epoch := v_epoch + 1;
    UPDATE event_store_meta SET epoch = v_epoch, rebased_at = now() WHERE id = 1;
  END IF;
  RETURN v_epoch;
END
$$;
