import type { Database, Executor } from '../db/database.js';
import { queryRows } from '../db/database.js';
import { sql } from 'drizzle-orm';

/** The checkpoint was moved by someone else (a reset for a rebuild, another holder): read it again. */
export class CheckpointMovedError extends Error {
  constructor(readonly subscription: string) {
    super(`The checkpoint of ${subscription} moved under this process`);
    this.name = 'CheckpointMovedError';
  }
}

/** Every subscription's checkpoint (null: from the beginning). */
export async function readCheckpoints(database: Database): Promise<Map<string, string | null>> {
  const rows = await database.query<{ name: string; position: string | null }>(
    'select name, position from subscription_checkpoints',
  );
  return new Map(rows.map((r) => [r.name, r.position]));
}

/** One checkpoint; undefined when the subscription has never run. */
export async function readCheckpoint(database: Database, name: string): Promise<string | null | undefined> {
  const [row] = await database.query<{ position: string | null }>(
    'select position from subscription_checkpoints where name = $1',
    [name],
  );
  return row ? row.position : undefined;
}

/** Creates the checkpoint of a subscription that has never run; leaves an existing one alone. */
export async function ensureCheckpoint(database: Database, name: string, start: string | null): Promise<void> {
  await database.query(
    'insert into subscription_checkpoints (name, position, updated_at) values ($1, $2, now()) on conflict do nothing',
    [name, start],
  );
}

/**
 * Moves a checkpoint from `from` to `to` inside the transaction that writes what the events did (or alone, past
 * events nothing is written for). A compare-and-set: when the checkpoint is no longer at `from`, nothing may be
 * written and the transaction is rolled back.
 */
export async function advanceCheckpoint(tx: Executor, name: string, from: string | null, to: string): Promise<void> {
  const moved = await queryRows<{ name: string }>(
    tx,
    sql`update subscription_checkpoints set position = ${to}, updated_at = now()
        where name = ${name} and position is not distinct from ${from} returning name`,
  );
  if (moved.length === 0) throw new CheckpointMovedError(name);
}

/**
 * Moves several checkpoints to `to` in one statement, each from where its mover saw it (a compare-and-set each): past
 * events nothing is written for. Answers the names moved; one that was no longer where it was seen stays.
 */
export async function advanceCheckpoints(
  database: Database,
  moves: ReadonlyArray<{ name: string; from: string | null }>,
  to: string,
): Promise<Set<string>> {
  if (moves.length === 0) return new Set();
  const rows = await database.query<{ name: string }>(
    `update subscription_checkpoints c set position = $3, updated_at = now()
     from unnest($1::text[], $2::text[]) as x(name, position)
     where c.name = x.name and c.position is not distinct from x.position
     returning c.name`,
    [moves.map((m) => m.name), moves.map((m) => m.from), to],
  );
  return new Set(rows.map((r) => r.name));
}
