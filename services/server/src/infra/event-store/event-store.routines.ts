import type { Routine } from '../db/database.js';

/**
 * The event store's functions in the database, as they are now (the migrations that first made them, 0003 and 0011,
 * keep their history): `Database.migrate()` applies them after the migrations, in this order.
 */
/** Months of claims' partitions made ahead of the current one. */
export const CLAIM_MONTHS_AHEAD = 2;

/**
 * Makes the claims' partitions missing: those of the months the default partition holds rows of, up to
 * CLAIM_MONTHS_AHEAD months ahead. Run at start (after the routines) and by the event log's maintenance job.
 */
export const MAKE_CLAIM_PARTITIONS_SQL = `select seatlink_make_claim_partitions(
  least(now(), (select min(d.created_at) from events_claims_default d)),
  now() + interval '${CLAIM_MONTHS_AHEAD} months') as made`;

export const eventStoreRoutines: readonly Routine[] = [
  // Fails the statement that calls it: an append that could take only some of its positions (another append holds the
  // others) must insert none. SQLSTATE 40001, as a serialization failure: the caller reads again and retries.
  {
    name: 'seatlink_refuse_partial_append',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_refuse_partial_append(p_stream text)
RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'another append to stream % took part of these positions', p_stream USING ERRCODE = '40001';
END
$$;
`,
  },
  // After an append was refused (a taken position or event id): whether these very ids were appended to this stream
  // before, at consecutive positions in this order (a repeated append: answers its last event), or not (no row).
  {
    name: 'seatlink_find_append',
    sql: `
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
`,
  },
  // Where the gap-safe feed ends now: (epoch, transaction id) below which every event is committed for good. The
  // transaction bound is the oldest transaction still open in THIS database (not the whole cluster: a long transaction
  // in another database must not stall the feed). Call it in a statement of its own before the read, so a transaction
  // that commits in between is either counted in the bound or visible to the read. On a read replica the primary's
  // sessions are not in pg_stat_activity: there the bound is the oldest transaction still open in the whole cluster
  // (lower, never past an open one of this database: a reader given it reads again a little more, and misses nothing).
  {
    name: 'seatlink_feed_bound',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_feed_bound(OUT o_epoch integer, OUT o_bound bigint)
LANGUAGE plpgsql AS $$
BEGIN
  IF pg_is_in_recovery() THEN
    SELECT least(pg_snapshot_xmax(s.snap)::text::bigint,
                 (SELECT min(x::text::bigint) FROM pg_snapshot_xip(s.snap) AS x))
    INTO o_bound
    FROM (SELECT pg_current_snapshot() AS snap) AS s;
    SELECT coalesce(m.epoch, 0) INTO o_epoch FROM event_store_meta m WHERE m.id = 1;
    o_epoch := coalesce(o_epoch, 0);
    RETURN;
  END IF;
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
  INTO o_bound
  FROM (SELECT pg_current_snapshot() AS snap) AS s;
  SELECT coalesce(m.epoch, 0) INTO o_epoch FROM event_store_meta m WHERE m.id = 1;
  o_epoch := coalesce(o_epoch, 0);
END
$$;
`,
  },
  // Reads the feed after a position, gap-safe: only transactions that can no longer commit an event before the ones
  // returned are shown. Call it outside an explicit transaction (each call then sees the activity of that moment).
  {
    name: 'seatlink_read_all',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_read_all(p_epoch integer, p_tx bigint, p_pos bigint, p_limit integer)
RETURNS SETOF events
LANGUAGE plpgsql AS $$
DECLARE
  v_epoch integer;
  v_bound bigint;
BEGIN
  SELECT b.o_epoch, b.o_bound INTO v_epoch, v_bound FROM seatlink_feed_bound() b;
  RETURN QUERY
    SELECT e.* FROM events e
    WHERE (e.epoch, e.transaction_id, e.global_position) > (p_epoch, p_tx, p_pos)
      AND (e.epoch, e.transaction_id, e.global_position) < (v_epoch, v_bound, 0::bigint)
    ORDER BY e.epoch, e.transaction_id, e.global_position
    LIMIT p_limit;
END
$$;
`,
  },
  // The feed as a reader of some event types reads it, gap-safe as seatlink_read_all: its events after a position (at
  // most p_limit, each type's read from events_type_feed_idx, so the events of other types are not read at all); then,
  // when that was all of them, the feed's last readable event with its data left out, when it is of another type: the
  // reader moves past it (and everything between) without reading them. No row: nothing new is readable.
  {
    name: 'seatlink_read_feed_for',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_read_feed_for(p_epoch integer, p_tx bigint, p_pos bigint, p_limit integer,
                                                  p_types text[])
RETURNS SETOF events
LANGUAGE plpgsql AS $$
DECLARE
  v_epoch integer;
  v_bound bigint;
  v_found integer;
BEGIN
  SELECT b.o_epoch, b.o_bound INTO v_epoch, v_bound FROM seatlink_feed_bound() b;
  -- A row comparison led by the type: only events_type_feed_idx can answer it, one range per type, in feed order.
  RETURN QUERY
    SELECT e.* FROM (SELECT DISTINCT u.type FROM unnest(p_types) AS u(type)) t
    CROSS JOIN LATERAL (
      SELECT f.* FROM events f
      WHERE (f.type, f.epoch, f.transaction_id, f.global_position) > (t.type, p_epoch, p_tx, p_pos)
        AND (f.type, f.epoch, f.transaction_id, f.global_position) < (t.type, v_epoch, v_bound, 0::bigint)
      ORDER BY f.type, f.epoch, f.transaction_id, f.global_position
      LIMIT p_limit
    ) e
    ORDER BY e.epoch, e.transaction_id, e.global_position
    LIMIT p_limit;
  GET DIAGNOSTICS v_found = ROW_COUNT;
  IF v_found < p_limit THEN
    RETURN QUERY
      SELECT e.global_position, e.transaction_id, e.stream_id, e.stream_position, e.event_id, e.type,
             'null'::jsonb, '{}'::jsonb, e.created_at, e.epoch
      FROM (
        SELECT l.* FROM events l
        WHERE (l.epoch, l.transaction_id, l.global_position) > (p_epoch, p_tx, p_pos)
          AND (l.epoch, l.transaction_id, l.global_position) < (v_epoch, v_bound, 0::bigint)
        ORDER BY l.epoch DESC, l.transaction_id DESC, l.global_position DESC
        LIMIT 1
      ) e
      WHERE NOT (e.type = ANY (p_types));
  END IF;
END
$$;
`,
  },
  // Makes the claims' monthly partitions of the event log from p_from's month to p_to's (those missing), each with its
  // keys: a click stream's positions and the event ids unique within the month. A month is made as a table of its
  // own, given the rows the default partition holds for it, then attached (which locks the claims' parent only against
  // other changes of its partitions, not against claims). A month whose lock is not had within 2 s is left for the
  // next call. Answers how many months were made.
  {
    name: 'seatlink_make_claim_partitions',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_make_claim_partitions(p_from timestamptz, p_to timestamptz)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_month timestamptz := date_trunc('month', p_from AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  v_next timestamptz;
  v_name text;
  v_made integer := 0;
BEGIN
  PERFORM set_config('lock_timeout', '2s', true);
  WHILE v_month <= p_to LOOP
    v_next := (v_month AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC';
    v_name := 'events_claims_' || to_char(v_month AT TIME ZONE 'UTC', 'YYYY_MM');
    IF to_regclass(v_name) IS NULL THEN
      BEGIN
        EXECUTE format('CREATE TABLE %I (LIKE events_claims INCLUDING DEFAULTS)', v_name);
        EXECUTE format('WITH moved AS (DELETE FROM events_claims_default WHERE created_at >= %L AND created_at < %L '
                       'RETURNING *) INSERT INTO %I SELECT * FROM moved', v_month, v_next, v_name);
        EXECUTE format('CREATE UNIQUE INDEX %I ON %I (stream_id, stream_position)', v_name || '_stream_key', v_name);
        EXECUTE format('CREATE UNIQUE INDEX %I ON %I (event_id)', v_name || '_event_id_key', v_name);
        EXECUTE format('ALTER TABLE events_claims ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
                       v_name, v_month, v_next);
        v_made := v_made + 1;
      EXCEPTION WHEN lock_not_available THEN
        RAISE NOTICE 'claims partition % not made now: its lock was held', v_name;
      END;
    END IF;
    v_month := v_next;
  END LOOP;
  RETURN v_made;
END
$$;
`,
  },
  // Raises the epoch when the newest events of the current one carry transaction ids the cluster has not reached yet:
  // the database was restored into another cluster (pg_dump/pg_restore), whose ids start again from low numbers.
  // New events then sort after every restored one. Answers the epoch in force (migrate() calls it after the routines).
  {
    name: 'seatlink_rebase_if_restored',
    sql: `
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
`,
  },
];
