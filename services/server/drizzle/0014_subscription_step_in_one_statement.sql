-- One step of a subscription applied inside the database (its `inDatabase` function, e.g. 0013's), in ONE statement:
-- the function reads and applies its page, then the subscription's checkpoint moves from p_from to where it read (a
-- compare-and-set). A checkpoint moved by someone else (a reset for a rebuild) raises SL001, which undoes the page. A
-- step was four round trips (begin, the function, the checkpoint, commit); under a stream of clicks the two click
-- projections step ~70 times a second each, most of them finding nothing new while a claim's transaction is open.
-- Answers the function's row (no row: nothing new is readable; a row without a position: the page is the process's).
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
