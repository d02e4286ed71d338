import type { Routine } from '../../infra/db/database.js';
import { clickStream } from './distribution.events.js';
import { LINK_ROW_EVENTS } from './read-models/links.projection.js';

// The distribution module's functions in the database, as they are now; `Database.migrate()` applies them after the
// migrations, in this order (the migrations that first made them, 0010, 0012 and 0013, keep their history).

/**
 * A link's state, the first that applies: withdrawn (recalled, or its ticket no longer held), expired (its expiry at or
 * before p_now), limit reached (a limit above 0 and the clicks at or above it; none or 0 is unlimited), else active.
 * The same rule as `linkState` of the contracts, which the dashboard shows; a test holds the two to the same answers.
 * A plain SQL expression, so the planner inlines it where a query calls it.
 */
const linkState: Routine = {
  name: 'seatlink_link_state',
  sql: `
CREATE OR REPLACE FUNCTION seatlink_link_state(p_recalled boolean, p_ticket_held boolean, p_expires_at timestamptz,
                                               p_max_clicks integer, p_clicks integer, p_now timestamptz)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN p_recalled OR NOT p_ticket_held THEN 'recalled'
    WHEN p_expires_at IS NOT NULL AND p_expires_at <= p_now THEN 'expired'
    WHEN p_max_clicks > 0 AND p_clicks >= p_max_clicks THEN 'limit_reached'
    ELSE 'active' END
$$;
`,
};

/**
 * Counts a batch of claims of one link, in one call, under its counter's row lock (a link gives at most max_clicks
 * clicks, however many API processes claim at once). p_keys has one element per claim: its Idempotency-Key, or NULL.
 * A key already given a click (by an earlier call, or earlier in this batch) is answered with that click again and
 * counts nothing — unless the link was recalled since; every other claim is counted, in order, while the link is live
 * and its limit leaves room. A counted key is kept (link_claim_keys); a refused one is not, so its retry is judged
 * again. A batch without keys skips the per-key statement. Answers one row, none for an unknown code: the link, its
 * state before the batch, the count before and after, and per claim the click it was given (NULL: refused).
 *
 * A link with a PIN counts only claims whose PIN the process checked: `p_pin_hash` is the hash it checked the PIN
 * against, which must be the link's PIN now (a new PIN set meanwhile refuses them); otherwise the state answered is
 * 'pin_required' and nothing is counted. Wrong PINs lock nothing (PINs are slowed per device and address before they
 * are checked): the right one always counts, however many wrong ones the link's counter holds (migration 0035).
 *
 * p_claimants has one element per claim too: who claims ({ name, device }: the name the recipient gave and their
 * device, each may be null); each click's event carries its claimant's, and the links read model the last click's.
 *
 * Every click it counts is recorded as an event (LinkClicked, position n - 1 of the link's click stream) in the same
 * transaction — into `events_claims` (p_log true: the SQL event store; the month of the claim), or into `click_outbox` for an event store kept
 * elsewhere (KurrentDB), whence ClickOutbox moves it — and the links read model takes the new count in it too: the
 * count a claim decides on, the count the owner's list shows and the events a rebuild counts are one number.
 *
 * Its commit does not wait for the disk (synchronous_commit off, for this transaction alone), so the link's row lock is
 * free for the next batch at once instead of after a flush; the process answers none of the batch's claims before the
 * log is flushed past this commit (Database.durable(), one flush shared by every batch of the moment). A claim answered
 * is durable; one whose commit the server lost in a crash before the flush was never answered, and its retry counts it
 * again. What saw the count meanwhile and committed wrote its own commit after this one, which a crash loses first.
 */
const claimLink: Routine = {
  name: 'seatlink_claim_link',
  sql: `
CREATE OR REPLACE FUNCTION seatlink_claim_link(p_code text, p_keys text[], p_pin_hash text, p_log boolean,
                                               p_claimants jsonb DEFAULT NULL)
RETURNS TABLE (distribution_id uuid, ticket_id uuid, user_id uuid, state text, before integer, after integer,
               last_click_at timestamptz, save_url text, clicks integer[])
LANGUAGE plpgsql AS $$
DECLARE
  v_link link_counters%ROWTYPE;
  v_limit integer;
  v_ticket_held boolean;
  v_save_url text;
  v_state text;
  v_given integer;
  v_clicks integer[];
  -- Per click given, in click order, who made it ({ name, device }, from p_claimants).
  v_who jsonb;
  v_at text;
BEGIN
  SELECT * INTO v_link FROM link_counters c WHERE c.code = p_code FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  -- No limit, or a limit of 0, is unlimited.
  v_limit := CASE WHEN v_link.max_clicks > 0 THEN v_link.max_clicks END;
  -- The flush is the process's to wait for, before it answers (above): the row's lock is not held through it.
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT true, t.save_url INTO v_ticket_held, v_save_url FROM tickets t WHERE t.id = v_link.ticket_id;
  v_state := seatlink_link_state(v_link.recalled_at IS NOT NULL, coalesce(v_ticket_held, false), v_link.expires_at,
                                 v_link.max_clicks, v_link.clicks, now());
  -- A live link with a PIN gives clicks only to claims whose PIN was checked against its PIN as it is now. Nothing is
  -- counted or kept.
  IF v_state = 'active' AND v_link.pin_hash IS NOT NULL AND p_pin_hash IS DISTINCT FROM v_link.pin_hash THEN
    RETURN QUERY SELECT v_link.distribution_id, v_link.ticket_id, v_link.user_id, 'pin_required'::text,
      v_link.clicks, v_link.clicks, v_link.last_click_at, v_save_url,
      ARRAY(SELECT NULL::integer FROM generate_series(1, cardinality(p_keys)));
    RETURN;
  END IF;

  IF cardinality(array_remove(p_keys, NULL)) = 0 THEN
    -- No keys (or no claims): the first claims the limit leaves room for are counted, in order.
    v_given := CASE WHEN v_state <> 'active' THEN 0
                    WHEN v_limit IS NULL THEN cardinality(p_keys)
                    ELSE greatest(0, least(cardinality(p_keys), v_limit - v_link.clicks)) END;
    v_clicks := ARRAY(SELECT CASE WHEN g.i <= v_given THEN v_link.clicks + g.i END
                      FROM generate_series(1, cardinality(p_keys)) AS g(i) ORDER BY g.i);
    v_who := (SELECT coalesce(jsonb_agg(coalesce(p_claimants->(g.i - 1), 'null') ORDER BY g.i), '[]')
              FROM generate_series(1, v_given) AS g(i));
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
    WHERE v_state = 'active' AND (v_limit IS NULL OR fresh.n <= v_limit)
  ), kept AS (
    INSERT INTO link_claim_keys (distribution_id, key, n, claimed_at)
    SELECT v_link.distribution_id, given.k, given.n, now() FROM given WHERE given.k IS NOT NULL
    ON CONFLICT DO NOTHING
  )
  SELECT (SELECT count(*) FROM given)::integer,
         coalesce(array_agg(coalesce(g.n, gk.n, CASE WHEN v_state <> 'recalled' THEN kn.n END) ORDER BY c.i), '{}'),
         (SELECT coalesce(jsonb_agg(coalesce(p_claimants->(gw.i::integer - 1), 'null') ORDER BY gw.n), '[]')
          FROM given gw)
  INTO v_given, v_clicks, v_who
  FROM c
  LEFT JOIN given g ON g.i = c.i
  LEFT JOIN given gk ON gk.k = c.k
  LEFT JOIN known kn ON kn.k = c.k;
  END IF;

  IF v_given > 0 THEN
    UPDATE link_counters c SET clicks = c.clicks + v_given, last_click_at = date_trunc('milliseconds', now())
    WHERE c.distribution_id = v_link.distribution_id
    RETURNING c.last_click_at INTO v_link.last_click_at;
    -- The time as the process writes one (ISO 8601 in UTC, to the millisecond), which the click projections read.
    v_at := to_char(v_link.last_click_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
    IF p_log THEN
      INSERT INTO events_claims (epoch, stream_id, stream_position, event_id, type, data, metadata)
      SELECT (SELECT m.epoch FROM event_store_meta m WHERE m.id = 1), '${clickStream('')}' || v_link.distribution_id,
             v_link.clicks + g.i - 1, gen_random_uuid(), 'LinkClicked',
             jsonb_build_object('distributionId', v_link.distribution_id, 'ticketId', v_link.ticket_id,
                                'userId', v_link.user_id, 'n', v_link.clicks + g.i, 'at', v_at)
             || jsonb_strip_nulls(jsonb_build_object('name', v_who->(g.i - 1)->'name',
                                                     'device', v_who->(g.i - 1)->'device')),
             '{}'::jsonb
      FROM generate_series(1, v_given) AS g(i)
      ON CONFLICT DO NOTHING;
    ELSE
      INSERT INTO click_outbox (event_id, stream_id, position, data)
      SELECT gen_random_uuid(), '${clickStream('')}' || v_link.distribution_id, v_link.clicks + g.i - 1,
             jsonb_build_object('distributionId', v_link.distribution_id, 'ticketId', v_link.ticket_id,
                                'userId', v_link.user_id, 'n', v_link.clicks + g.i, 'at', v_at)
             || jsonb_strip_nulls(jsonb_build_object('name', v_who->(g.i - 1)->'name',
                                                     'device', v_who->(g.i - 1)->'device'))
      FROM generate_series(1, v_given) AS g(i);
    END IF;
    -- The owner's list shows the count the claim decided on (a rebuild from the events gives the same).
    UPDATE links l SET clicks = v_link.clicks + v_given,
                       last_click_at = greatest(l.last_click_at, v_link.last_click_at),
                       last_claim_name = v_who->(v_given - 1)->>'name',
                       last_claim_device = v_who->(v_given - 1)->>'device'
    WHERE l.distribution_id = v_link.distribution_id AND l.clicks < v_link.clicks + v_given;
  END IF;

  RETURN QUERY SELECT v_link.distribution_id, v_link.ticket_id, v_link.user_id, v_state, v_link.clicks,
    v_link.clicks + v_given, v_link.last_click_at, v_save_url, v_clicks;
END
$$;
`,
};

/**
 * The minute of a click, for the click timeline: its `at` as the process writes it (ISO 8601 in UTC, e.g.
 * 2026-11-22T20:20:25.123Z), truncated to the minute. Any other shape is an error (the projection in the process then
 * judges the event, as it would have without this function).
 */
const clickMinute: Routine = {
  name: 'seatlink_click_minute',
  sql: String.raw`
CREATE OR REPLACE FUNCTION seatlink_click_minute(p_at text) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF p_at IS NULL OR p_at !~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$' THEN
    RAISE EXCEPTION 'not a click time: %', left(p_at, 100) USING ERRCODE = '22007';
  END IF;
  RETURN date_trunc('minute', p_at::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
END
$$;
`,
};

/**
 * The link-click-timeline projection, applied inside the database (its `inDatabase` function): the clicks after a
 * feed position (at most p_limit, read gap-safe by seatlink_read_feed_for) summed per link and minute into
 * link_click_minutes, without reading them into the process. Answers where it read up to, how many clicks it applied
 * and whether more may be readable at once; no row when nothing new is readable.
 */
const projectLinkClickMinutes: Routine = {
  name: 'seatlink_project_link_click_minutes',
  sql: `
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
`,
};

/**
 * The link-opens projection, applied inside the database (its `inDatabase` function): the first opens (LinkOpened) and
 * the claims (LinkClicked) after a feed position (at most p_limit) summed as `apply` sums them — opens per link and
 * minute (link_open_minutes), per link (link_open_totals: devices, its holder, the last first open) and opens and claims
 * per holder and UTC day (link_activity_days) — without reading them into the process (a claim storm's clicks were
 * read, parsed and summed there one by one). A time that is not one the process writes fails the step (the process
 * then applies the page, and parks what it cannot). Answers as seatlink_project_link_click_minutes does.
 */
const projectLinkOpens: Routine = {
  name: 'seatlink_project_link_opens',
  sql: `
CREATE OR REPLACE FUNCTION seatlink_project_link_opens(p_epoch integer, p_tx bigint, p_pos bigint, p_limit integer)
RETURNS TABLE (o_epoch integer, o_tx bigint, o_pos bigint, o_applied integer, o_more boolean)
LANGUAGE sql AS $$
  WITH page AS MATERIALIZED (
    SELECT e.epoch, e.transaction_id, e.global_position, e.type, e.data
    FROM seatlink_read_feed_for(p_epoch, p_tx, p_pos, p_limit, ARRAY['LinkOpened', 'LinkClicked']) AS e
  ), events AS MATERIALIZED (
    SELECT p.epoch, p.transaction_id, p.global_position, p.type, (p.data->>'distributionId')::uuid AS distribution_id,
           (p.data->>'userId')::uuid AS user_id, seatlink_click_minute(p.data->>'at') AS minute,
           (p.data->>'at')::timestamptz AS at, left(p.data->>'at', 10)::date AS day
    FROM page p WHERE p.type IN ('LinkOpened', 'LinkClicked')
  ), minutes AS (
    INSERT INTO link_open_minutes AS m (distribution_id, minute, opens)
    SELECT o.distribution_id, o.minute, count(*)::integer FROM events o WHERE o.type = 'LinkOpened' GROUP BY 1, 2
    ON CONFLICT (distribution_id, minute) DO UPDATE SET opens = m.opens + excluded.opens
  ), totals AS (
    -- A link's holder as its first open of the page names them (as apply takes it).
    INSERT INTO link_open_totals AS t (distribution_id, user_id, opens, last_open_at)
    SELECT o.distribution_id,
           (array_agg(o.user_id ORDER BY o.epoch, o.transaction_id, o.global_position))[1],
           count(*)::integer, max(o.at)
    FROM events o WHERE o.type = 'LinkOpened' GROUP BY 1
    ON CONFLICT (distribution_id) DO UPDATE SET opens = t.opens + excluded.opens,
                                                last_open_at = greatest(t.last_open_at, excluded.last_open_at)
  ), days AS (
    INSERT INTO link_activity_days AS d (user_id, day, opens, claims)
    SELECT e.user_id, e.day, count(*) FILTER (WHERE e.type = 'LinkOpened')::integer,
           count(*) FILTER (WHERE e.type = 'LinkClicked')::integer
    FROM events e GROUP BY 1, 2
    ON CONFLICT (user_id, day) DO UPDATE SET opens = d.opens + excluded.opens, claims = d.claims + excluded.claims
  ), applied AS (
    SELECT count(*)::integer AS n FROM events
  )
  SELECT l.epoch, l.transaction_id, l.global_position, a.n, a.n >= p_limit
  FROM (SELECT * FROM page ORDER BY epoch DESC, transaction_id DESC, global_position DESC LIMIT 1) AS l, applied a
$$;
`,
};

/**
 * The click counts of the links projection, applied inside the database: the clicks after a feed position raise their
 * link's count (and last click) to the highest click number among them, without being read into the process. The
 * links' other events (LINK_ROW_EVENTS: TicketDistributed, TicketRecalled, LinkUpdated, …) are left to the process: the
 * clicks before the first of them are applied and the checkpoint stops there (more follow at once); a page that starts
 * with one is answered with a row without a position (the process applies that page).
 */
const sqlList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

const projectLinkClicks: Routine = {
  name: 'seatlink_project_link_clicks',
  sql: `
CREATE OR REPLACE FUNCTION seatlink_project_link_clicks(p_epoch integer, p_tx bigint, p_pos bigint, p_limit integer)
RETURNS TABLE (o_epoch integer, o_tx bigint, o_pos bigint, o_applied integer, o_more boolean)
LANGUAGE sql AS $$
  WITH page AS MATERIALIZED (
    SELECT e.epoch, e.transaction_id, e.global_position, e.type, e.data
    FROM seatlink_read_feed_for(p_epoch, p_tx, p_pos, p_limit,
                                ARRAY[${sqlList(LINK_ROW_EVENTS)}, 'LinkClicked']) AS e
  ), stop AS (
    SELECT p.epoch, p.transaction_id, p.global_position FROM page p
    WHERE p.type IN (${sqlList(LINK_ROW_EVENTS)})
    ORDER BY p.epoch, p.transaction_id, p.global_position
    LIMIT 1
  ), taken AS (
    SELECT p.* FROM page p
    WHERE NOT EXISTS (SELECT 1 FROM stop s
                      WHERE (p.epoch, p.transaction_id, p.global_position)
                            >= (s.epoch, s.transaction_id, s.global_position))
  ), highest AS (
    SELECT DISTINCT ON (1) (t.data->>'distributionId')::uuid AS distribution_id, (t.data->>'n')::integer AS n,
           (t.data->>'at')::timestamptz AS at, t.data->>'name' AS name, t.data->>'device' AS device
    FROM taken t WHERE t.type = 'LinkClicked'
    ORDER BY 1, 2 DESC
  ), raised AS (
    UPDATE links l SET clicks = h.n, last_click_at = greatest(l.last_click_at, h.at), last_claim_name = h.name,
                       last_claim_device = h.device
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
`,
};

/** In the order they are applied: each after the functions its body is checked against. */
export const distributionRoutines: readonly Routine[] = [
  linkState,
  claimLink,
  clickMinute,
  projectLinkClickMinutes,
  projectLinkOpens,
  projectLinkClicks,
];
