import type { Routine } from '../../infra/db/database.js';
import { AUDIT_LOG_EVENTS } from './read-models/audit-log.projection.js';

// The audit module's functions in the database, as they are now; `Database.migrate()` applies them after the
// migrations, at every start, after the distribution module's (src/routines.ts): a click's time is read by that
// module's `seatlink_click_minute`, as the module that records clicks reads it (any other shape is an error, and the
// process then judges the event).

const sqlList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * The audit-log projection's claims, applied inside the database (its `inDatabase` function): the clicks after a feed
 * position, summed per link and hour into their entries of audit_entries (count, first and last claim), as
 * `claimRowsOf` and the projection's `apply` do in the process — the same entry id (the MD5 of
 * 'claims|<link>|<hour>'), the same columns. The log's other events are left to the process: the clicks before the
 * first of them are applied and the checkpoint stops there (more follow at once); a page that starts with one is
 * answered with a row without a position (the process applies that page).
 */
const projectAuditClaims: Routine = {
  name: 'seatlink_project_audit_claims',
  sql: `
CREATE OR REPLACE FUNCTION seatlink_project_audit_claims(p_epoch integer, p_tx bigint, p_pos bigint, p_limit integer)
RETURNS TABLE (o_epoch integer, o_tx bigint, o_pos bigint, o_applied integer, o_more boolean)
LANGUAGE sql AS $$
  WITH page AS MATERIALIZED (
    SELECT e.epoch, e.transaction_id, e.global_position, e.type, e.data
    FROM seatlink_read_feed_for(p_epoch, p_tx, p_pos, p_limit, ARRAY[${sqlList(AUDIT_LOG_EVENTS)}]) AS e
  ), stop AS (
    SELECT p.epoch, p.transaction_id, p.global_position FROM page p
    WHERE p.type <> 'LinkClicked'
    ORDER BY p.epoch, p.transaction_id, p.global_position
    LIMIT 1
  ), taken AS (
    SELECT p.* FROM page p
    WHERE NOT EXISTS (SELECT 1 FROM stop s
                      WHERE (p.epoch, p.transaction_id, p.global_position)
                            >= (s.epoch, s.transaction_id, s.global_position))
  ), claims AS (
    SELECT (t.data->>'distributionId')::uuid::text AS distribution_id, t.data->>'ticketId' AS ticket_id,
           (t.data->>'userId')::uuid AS user_id,
           date_trunc('hour', seatlink_click_minute(t.data->>'at') AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hour,
           (t.data->>'at')::timestamptz AS at
    FROM taken t
  ), sums AS (
    SELECT c.distribution_id, c.ticket_id, c.user_id,
           to_char(c.hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24":00:00.000Z"') AS hour,
           count(*)::integer AS n, min(c.at) AS first_at, max(c.at) AS last_at
    FROM claims c
    GROUP BY c.distribution_id, c.ticket_id, c.user_id, c.hour
  ), upserted AS (
    INSERT INTO audit_entries AS a (id, user_id, created_at, kind, event_type, status, ticket_id, distribution_id,
                                    ip_address, bulk_action, event_data, actor_id, subject_id, count, last_at)
    SELECT md5('claims|' || s.distribution_id || '|' || s.hour)::uuid, s.user_id, s.first_at, 'links', 'LINK_CLAIMED',
           'SUCCESS', s.ticket_id, s.distribution_id, NULL, false,
           jsonb_build_object('status', 'SUCCESS', 'ticket_id', s.ticket_id, 'distribution_id', s.distribution_id,
                              'hour', s.hour),
           NULL, NULL, s.n, s.last_at
    FROM sums s
    ON CONFLICT (id) DO UPDATE SET count = a.count + excluded.count,
                                   created_at = least(a.created_at, excluded.created_at),
                                   last_at = greatest(a.last_at, excluded.last_at)
  ), applied AS (
    SELECT count(*)::integer AS n FROM taken
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
export const auditRoutines: readonly Routine[] = [projectAuditClaims];
