import type { Routine } from './database.js';

// The functions of versioned read models (read-model-versions.ts) in the database.

/** The triggers' functions, as they are now (migration 0018 first made them). */
export const readModelVersionRoutines: readonly Routine[] = [
  // BEFORE INSERT OR UPDATE, for each row of a versioned read model: the writing transaction is the row's version.
  {
    name: 'seatlink_stamp_version',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_stamp_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := pg_current_xact_id()::text::bigint;
  RETURN NEW;
END
$$;
`,
  },
  // Raises a table's floor to a version (never lowers it): a purge of what the table kept calls it with the newest
  // version it purged.
  {
    name: 'seatlink_raise_version_floor_to',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_raise_version_floor_to(p_table text, p_version bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO read_model_floors AS f (table_name, version) VALUES (p_table, p_version)
  ON CONFLICT (table_name) DO UPDATE SET version = greatest(f.version, excluded.version)
$$;
`,
  },
  // AFTER TRUNCATE, for each statement: the table was emptied (a rebuild), so no version before this transaction can
  // be answered by its changes.
  {
    name: 'seatlink_raise_version_floor',
    sql: `
CREATE OR REPLACE FUNCTION seatlink_raise_version_floor() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM seatlink_raise_version_floor_to(TG_TABLE_NAME::text, pg_current_xact_id()::text::bigint);
  RETURN NULL;
END
$$;
`,
  },
];
