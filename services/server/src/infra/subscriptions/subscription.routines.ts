import type { Routine } from '../db/database.js';

/**
 * The subscriptions' function in the database, as it is now (migration 0014 first made it): `Database.migrate()` applies
 * it after the migrations.
 */
export const subscriptionRoutines: readonly Routine[] = [
  // One step of a subscription applied inside the database (its `inDatabase` function), in ONE statement: the function
  // reads and applies its page, then the subscription's checkpoint moves from p_from to where it read (a
  // compare-and-set). A checkpoint moved by someone else (a reset for a rebuild) raises SL001, which undoes the page.
  // Answers the function's row (no row: nothing new is readable; a row without a position: the page is the process's).
  {
    name: 'seatlink_step_in_database',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_step_in_database(p_fn text, p_name text, p_from text, p_epoch integer,
                                                     p_tx bigint, p_pos bigint, p_limit integer)
RETURNS TABLE (o_epoch integer, o_tx bigint, o_pos bigint, o_applied integer, o_more boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_row record;
  v_found integer;
BEGIN
  EXECUTE format('SELECT * FROM %I($1, $2, $3, $4)', p_fn) INTO v_row USING p_epoch, p_tx, p_pos, p_limit;
  GET DIAGNOSTICS v_found = ROW_COUNT;
  IF v_found = 0 THEN
    RETURN;
  END IF;
  IF v_row.o_epoch IS NOT NULL THEN
    UPDATE subscription_checkpoints c
    SET position = v_row.o_epoch::text || ':' || v_row.o_tx::text || ':' || v_row.o_pos::text, updated_at = now()
    WHERE c.name = p_name AND c.position IS NOT DISTINCT FROM p_from;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'The checkpoint of % moved', p_name USING ERRCODE = 'SL001';
    END IF;
  END IF;
  RETURN QUERY SELECT v_row.o_epoch, v_row.o_tx, v_row.o_pos, v_row.o_applied, v_row.o_more;
END
$$;
`,
  },
];
