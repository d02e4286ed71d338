import { param, sql } from 'drizzle-orm';
import { type Executor, queryRows } from './database.js';

/*
 * Versioned read models: a client that holds a version of a read model asks only for what changed after it.
 *
 * A row's `version` is the id of the transaction that last wrote it (xid8 as a bigint), stamped by a trigger
 * (`seatlink_stamp_version`) on every insert and update, whoever writes it: a projection in the process or one inside
 * the database. The version a client is given is the bound under which every transaction of this database had ended
 * before the read (`seatlink_feed_bound`, the bound the event feed reads by): a row the read could not see was written
 * by a transaction at or above it, so "changed after version v" is `version >= v`. A row may be answered twice (written
 * above the bound but committed before the read), none is missed. A sequence would not do: its numbers are taken
 * before commit, so a higher number can commit first, and a client given it would never be told of the lower one.
 *
 * A version also carries the feed's epoch (raised when the database was restored into another cluster, whose
 * transaction ids start again from low numbers): a version of another epoch is answered in full. So is one at or below
 * a table's floor (`read_model_floors`), which a TRUNCATE raises to the emptying transaction (a rebuild: its rows come
 * back with new versions, but what was deleted meanwhile could not be told) and a purge of kept removals to the
 * newest it purged.
 */

/** The read models' bound when a read starts: the feed's epoch and the transaction id under which all had ended. */
export interface ReadModelBound {
  epoch: number;
  xid: bigint;
}

/** A version is one decimal number: epoch × 10^15 + transaction id (the contracts allow up to 18 digits). */
const EPOCH_FACTOR = 10n ** 15n;

/**
 * Where the read models stand: call it in a statement of its own before the read (outside the read's transaction),
 * so a transaction that commits in between is either below the bound and visible to the read, or at or above it.
 */
export async function readModelBound(db: Executor): Promise<ReadModelBound> {
  const [row] = await queryRows<{ epoch: number; bound: string }>(
    db,
    sql`select b.o_epoch as epoch, b.o_bound::text as bound from seatlink_feed_bound() b`,
  );
  return { epoch: Number(row!.epoch), xid: BigInt(row!.bound) };
}

/** The version a client is given for a read that started at `bound`. */
export const versionOf = (bound: ReadModelBound): string => (BigInt(bound.epoch) * EPOCH_FACTOR + bound.xid).toString();

/** The highest floor of these tables (0 when none was ever raised). */
export async function versionFloor(db: Executor, tables: readonly string[]): Promise<bigint> {
  const [row] = await queryRows<{ floor: string }>(
    db,
    sql`select coalesce(max(version), 0)::text as floor from read_model_floors
        where table_name = any(${param([...tables])}::text[])`,
  );
  return BigInt(row!.floor);
}

/**
 * The transaction id from which the rows changed after the version `since` are stamped (`version >= it`), or null
 * when the changes cannot tell it: a version of another epoch, one this database has not reached yet, or one at or
 * below the floor (`floor`: versionFloor of every table the answer reads).
 */
export function changedFrom(since: string, bound: ReadModelBound, floor: bigint): bigint | null {
  const value = BigInt(since);
  const epoch = value / EPOCH_FACTOR;
  const xid = value % EPOCH_FACTOR;
  if (epoch !== BigInt(bound.epoch) || xid > bound.xid || xid <= floor) return null;
  return xid;
}
