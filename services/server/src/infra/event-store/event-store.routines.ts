import type { Routine } from '../db/database.js';

/**
 * The event store's functions in the database, as they are now (the migrations that first made them, 0003 and 0011,
 * keep their history): `Database.migrate()` applies them after the migrations, in this order.
 */
/**
 * Where the feed's rows `alias` lie strictly between the reader's position (p_epoch, p_tx, p_pos) and the bound
 * (v_epoch, v_bound), as two conditions: for a reader in the current epoch (nearly always), one the indexes on
 * (…, epoch, transaction_id, global_position) answer as a range with both ends — the epoch fixed, the transaction id
 * between two values — so a scan stops where the range ends, in either direction and in every partition (a row
 * comparison alone lets PostgreSQL stop only on its first column: a scan of a caught-up reader walked the whole
 * index); and the general one, for a reader still in an earlier epoch.
 */
const feedRange = (alias: string) => ({
  sameEpoch: `${alias}.epoch = p_epoch AND ${alias}.transaction_id >= p_tx AND ${alias}.transaction_id < v_bound
        AND (${alias}.transaction_id, ${alias}.global_position) > (p_tx, p_pos)`,
  general: `(${alias}.epoch, ${alias}.transaction_id, ${alias}.global_position) > (p_epoch, p_tx, p_pos)
        AND (${alias}.epoch, ${alias}.transaction_id, ${alias}.global_position) < (v_epoch, v_bound, 0::bigint)`,
});

/**
 * A page of the feed (`page`: the query of its rows, up to p_limit in feed order) with the compacted events of `types`
 * (null: all) from the reader's position up to the page's last event, or the bound when the page is not full.
 */
const withCompacted = (page: string, types: string) => `
  RETURN QUERY
    WITH page AS MATERIALIZED (${page}
    )
    SELECT u.* FROM (
      SELECT * FROM page
      UNION ALL
      SELECT * FROM seatlink_compacted_events(seatlink_feed_key(p_epoch, p_tx, p_pos),
                                              seatlink_page_end(v_epoch, v_bound, p_limit,
                                                                (SELECT count(*) FROM page)::integer,
                                                                (SELECT max(seatlink_feed_key(p.epoch, p.transaction_id,
                                                                                              p.global_position))
                                                                 FROM page p)), ${types}, p_limit)
    ) u
    ORDER BY u.epoch, u.transaction_id, u.global_position
    LIMIT p_limit;`;

/** The page of seatlink_read_all within `range`, with the compacted events up to its end. */
const readAllPage = (range: string) =>
  withCompacted(
    `
      SELECT e.* FROM events e
      WHERE ${range}
      ORDER BY e.epoch, e.transaction_id, e.global_position
      LIMIT p_limit`,
    'NULL',
  );

/**
 * The page of seatlink_read_feed_for, with its types' compacted events. Each type's rows by a row comparison led by
 * the type: only events_type_feed_idx answers it (a range per type, in feed order; the scan ends at the next type,
 * past the bound only by what is still being written). Scalar conditions instead would let PostgreSQL pick the feed
 * index and filter every row of other types out of it.
 */
const READ_FEED_FOR_PAGE = withCompacted(
  `
      SELECT e.* FROM (SELECT DISTINCT u.type FROM unnest(p_types) AS u(type)) t
      CROSS JOIN LATERAL (
        SELECT f.* FROM events f
        WHERE (f.type, f.epoch, f.transaction_id, f.global_position) > (t.type, p_epoch, p_tx, p_pos)
          AND (f.type, f.epoch, f.transaction_id, f.global_position) < (t.type, v_epoch, v_bound, 0::bigint)
        ORDER BY f.type, f.epoch, f.transaction_id, f.global_position
        LIMIT p_limit
      ) e
      ORDER BY e.epoch, e.transaction_id, e.global_position
      LIMIT p_limit`,
  'p_types',
);

/** The feed's last readable event within `range` (rows `l`), its data left out, when it is not of the reader's types. */
const lastOfOtherType = (range: string) => `
    RETURN QUERY
      SELECT e.global_position, e.transaction_id, e.stream_id, e.stream_position, e.event_id, e.type,
             'null'::jsonb, '{}'::jsonb, e.created_at, e.epoch
      FROM (
        SELECT l.* FROM events l
        WHERE ${range}
        ORDER BY l.epoch DESC, l.transaction_id DESC, l.global_position DESC
        LIMIT 1
      ) e
      WHERE NOT (e.type = ANY (p_types));`;

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
  // A feed position as one ordered number, for the ranges of compacted events (epoch, then transaction id, then global
  // position: each below 2^64).
  {
    name: 'seatlink_feed_key',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_feed_key(p_epoch integer, p_tx bigint, p_pos bigint)
RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (p_epoch::numeric * 18446744073709551616 + p_tx::numeric) * 18446744073709551616 + p_pos::numeric
$$;
`,
  },
  // The first p_limit compacted events (events_compacted, drizzle/0039) whose feed positions lie strictly between two
  // keys, of the types given (null: all), as the rows of the log they were: same positions, id, time, data and
  // metadata. Only the rows that can hold them are opened: those the start lies in (by the GiST index on spans), and
  // the first p_limit rows to begin after it (the p_limit-th of those begins at or after the p_limit-th event, so a
  // row beginning later holds none of the first p_limit).
  {
    name: 'seatlink_compacted_events',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_compacted_events(p_lo numeric, p_hi numeric, p_types text[], p_limit integer)
RETURNS SETOF events
LANGUAGE sql STABLE AS $$
  WITH chosen AS (
    SELECT c.stream_id, c.first_position FROM events_compacted c
    WHERE c.span @> p_lo AND (p_types IS NULL OR c.type = ANY (p_types))
    UNION
    (SELECT c.stream_id, c.first_position FROM events_compacted c
     WHERE c.first_key > p_lo AND c.first_key < p_hi AND (p_types IS NULL OR c.type = ANY (p_types))
     ORDER BY c.first_key
     LIMIT p_limit)
  )
  SELECT x.* FROM (
    SELECT (x.ev ->> 2)::bigint, (x.ev ->> 1)::bigint, c.stream_id, (x.ev ->> 0)::integer, (x.ev ->> 3)::uuid, c.type,
           CASE WHEN c.common = '{}'::jsonb THEN x.ev -> 5 ELSE c.common || (x.ev -> 5) END,
           coalesce(nullif(x.ev -> 6, 'null'::jsonb), '{}'::jsonb), (x.ev ->> 4)::timestamptz, c.epoch
    FROM chosen h
    JOIN events_compacted c ON c.stream_id = h.stream_id AND c.first_position = h.first_position
    CROSS JOIN LATERAL jsonb_array_elements(c.events) AS x(ev)
    WHERE seatlink_feed_key(c.epoch, (x.ev ->> 1)::bigint, (x.ev ->> 2)::bigint) > p_lo
      AND seatlink_feed_key(c.epoch, (x.ev ->> 1)::bigint, (x.ev ->> 2)::bigint) < p_hi
  ) x
  ORDER BY 10, 2, 1
  LIMIT p_limit
$$;
`,
  },
  // The compacted events of some streams, as the rows of the log they were.
  {
    name: 'seatlink_compacted_streams',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_compacted_streams(p_streams text[])
RETURNS SETOF events
LANGUAGE sql STABLE AS $$
  SELECT (x.ev ->> 2)::bigint, (x.ev ->> 1)::bigint, c.stream_id, (x.ev ->> 0)::integer, (x.ev ->> 3)::uuid, c.type,
         CASE WHEN c.common = '{}'::jsonb THEN x.ev -> 5 ELSE c.common || (x.ev -> 5) END,
         coalesce(nullif(x.ev -> 6, 'null'::jsonb), '{}'::jsonb), (x.ev ->> 4)::timestamptz, c.epoch
  FROM events_compacted c
  CROSS JOIN LATERAL jsonb_array_elements(c.events) AS x(ev)
  WHERE c.stream_id = ANY (p_streams)
$$;
`,
  },
  // Reads the feed after a position, gap-safe: only transactions that can no longer commit an event before the ones
  // returned are shown. Call it outside an explicit transaction (each call then sees the activity of that moment).
  // Compacted events come back where they were: those up to the page's last event (or the bound, when the page is not
  // full) join the page.
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
  IF p_epoch = v_epoch THEN${readAllPage(feedRange('e').sameEpoch)}
  ELSE${readAllPage(feedRange('e').general)}
  END IF;
END
$$;
`,
  },
  // Where the compacted events a page may take end (exclusive): past its last event when the page is full, else the
  // feed's bound.
  {
    name: 'seatlink_page_end',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_page_end(p_epoch integer, p_bound bigint, p_limit integer, p_count integer,
                                             p_last numeric)
RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_count >= p_limit THEN p_last + 1 ELSE seatlink_feed_key(p_epoch, p_bound, 0) END
$$;
`,
  },
  // The feed as a reader of some event types reads it, gap-safe as seatlink_read_all: its events after a position (at
  // most p_limit, each type's read from events_type_feed_idx, so the events of other types are not read at all); then,
  // when that was all of them, the feed's last readable event with its data left out, when it is of another type: the
  // reader moves past it (and everything between) without reading them. No row: nothing new is readable. Compacted
  // events of its types come back where they were, as in seatlink_read_all.
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
  -- Each type's rows from events_type_feed_idx, one range per type, in feed order; the compacted events of these types
  -- up to the page's last event (or the bound) join the page where they were. Then, when that was all, the feed's
  -- last readable event by a range with both ends (feedRange).
${READ_FEED_FOR_PAGE}
  GET DIAGNOSTICS v_found = ROW_COUNT;
  IF v_found < p_limit THEN
    IF p_epoch = v_epoch THEN${lastOfOtherType(feedRange('l').sameEpoch)}
    ELSE${lastOfOtherType(feedRange('l').general)}
    END IF;
  END IF;
END
$$;
`,
  },
  // Makes the claims' monthly partitions of the event log from p_from's month to p_to's (those missing), each with its
  // keys: a click stream's positions and the event ids unique within the month. A month is made as a table of its
  // own, given the rows the default partition holds for it, then attached (which locks the claims' parent only against
  // other changes of its partitions, not against claims). A month whose lock is not had within 2 s is left for the
  // next call, and so is everything while another call (or a compaction) is under way. Answers how many months were
  // made.
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
  -- One maker at a time (a starting process and the job may meet): the other finds them made, or makes them next time.
  IF NOT pg_try_advisory_xact_lock(hashtext('seatlink_event_log_partitions')) THEN
    RETURN 0;
  END IF;
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
  // Compacts the claims' month that begins at p_month (docs/architecture.md, "Compacted claims"): its events become rows
  // of events_compacted, one per stream, hour, type and epoch, each event kept whole (the data fields all of a row's
  // events share are kept once), and the month is detached from the log in the same transaction, so a reader sees
  // either the month or its compacted rows, never both. The month's table stays, detached, to be archived (pg_dump)
  // and dropped by the operator. Answers the events compacted; -1 when a lock was not had within 2 s, or another
  // compaction or maker of months is under way (nothing done);
  // 0 when the month is not a partition of the log (never made, or compacted already).
  {
    name: 'seatlink_compact_claims_month',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_compact_claims_month(p_month timestamptz)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_name text := 'events_claims_' || to_char(p_month AT TIME ZONE 'UTC', 'YYYY_MM');
  v_count bigint;
BEGIN
  IF to_regclass(v_name) IS NULL
     OR NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = to_regclass(v_name)
                                                AND i.inhparent = 'events_claims'::regclass) THEN
    RETURN 0;
  END IF;
  IF NOT pg_try_advisory_xact_lock(hashtext('seatlink_event_log_partitions')) THEN
    RETURN -1;
  END IF;
  PERFORM set_config('lock_timeout', '2s', true);
  BEGIN
    -- Nothing is added to the month while it is read (its claims are long over; this makes it certain).
    EXECUTE format('LOCK TABLE %I IN SHARE MODE', v_name);
    EXECUTE format($q$
      WITH ev AS (
        SELECT e.*, date_trunc('hour', e.created_at) AS h FROM %I e
      ), chunks AS (
        SELECT e.stream_id, e.type, e.epoch, e.h, count(*) AS n, bool_and(jsonb_typeof(e.data) = 'object') AS objects
        FROM ev e GROUP BY 1, 2, 3, 4
      ), fields AS (
        SELECT e.stream_id, e.type, e.epoch, e.h, k.key, k.value, count(*) AS n
        FROM ev e CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(e.data) = 'object' THEN e.data
                                                     ELSE '{}'::jsonb END) AS k
        GROUP BY 1, 2, 3, 4, 5, 6
      ), common AS (
        SELECT c.stream_id, c.type, c.epoch, c.h,
               CASE WHEN c.objects THEN coalesce(jsonb_object_agg(f.key, f.value) FILTER (WHERE f.n = c.n), '{}'::jsonb)
                    ELSE '{}'::jsonb END AS fields
        FROM chunks c LEFT JOIN fields f USING (stream_id, type, epoch, h)
        GROUP BY c.stream_id, c.type, c.epoch, c.h, c.objects
      ), inserted AS (
        INSERT INTO events_compacted (stream_id, first_position, last_position, type, epoch, span, first_key, n,
                                      common, events, source)
        SELECT e.stream_id, min(e.stream_position), max(e.stream_position), e.type, e.epoch,
               numrange(min(seatlink_feed_key(e.epoch, e.transaction_id, e.global_position)),
                        max(seatlink_feed_key(e.epoch, e.transaction_id, e.global_position)), '[]'),
               min(seatlink_feed_key(e.epoch, e.transaction_id, e.global_position)), count(*)::integer,
               c.fields,
               jsonb_agg(jsonb_build_array(
                 e.stream_position, e.transaction_id, e.global_position, e.event_id,
                 to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                 CASE WHEN c.fields = '{}'::jsonb THEN e.data
                      ELSE e.data - ARRAY(SELECT jsonb_object_keys(c.fields)) END,
                 nullif(e.metadata, '{}'::jsonb)) ORDER BY e.stream_position),
               %L
        FROM ev e JOIN common c USING (stream_id, type, epoch, h)
        GROUP BY e.stream_id, e.type, e.epoch, e.h, c.fields
        RETURNING jsonb_array_length(events) AS n
      )
      SELECT coalesce(sum(n), 0) FROM inserted
    $q$, v_name, v_name) INTO v_count;
    EXECUTE format('ALTER TABLE events_claims DETACH PARTITION %I', v_name);
  EXCEPTION WHEN lock_not_available THEN
    RETURN -1;
  END;
  RETURN v_count;
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
