import { getTableColumns, getTableName, inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/database.js';
import type { RecordedEvent } from '../event-store/event-store.port.js';
import { asSubscription, type LiveUpdate, type Subscription } from './subscription.js';

/** Rows per multi-row statement: well under PostgreSQL's 65,535 parameters for a table of a dozen columns. */
const CHUNK = 1000;

export interface RowProjectionDefinition<Table extends PgTable, Event extends { type: string; data: unknown }> {
  name: string;
  table: Table;
  /** The property (not column) name of the table's primary key. */
  key: keyof Table['$inferSelect'] & string;
  handles: readonly Event['type'][];
  /** The row an event changes; null when it changes none. */
  keyOf(event: Event): string | null;
  /** The row after the event: a new or changed row, or null to delete it. Pure: the same inputs, the same row. */
  evolve(row: Table['$inferSelect'] | null, event: Event, recorded: RecordedEvent): Table['$inferSelect'] | null;
  /** Live updates for one row changed by a batch (from its state before and after, and the events in between). */
  live?(
    after: Table['$inferSelect'] | null,
    before: Table['$inferSelect'] | null,
    events: readonly Event[],
  ): LiveUpdate[];
}

/**
 * A read model of one row per key, applied set-based. A batch loads the rows it touches in one statement, locked so
 * that an operator's retry of a parked event cannot interleave. It folds each row's events in memory, then writes the
 * last value of each row with one multi-row upsert and one delete. The rows are those of one statement per event, in
 * a few statements per batch.
 */
export function rowProjection<Table extends PgTable, Event extends { type: string; data: unknown }>(
  definition: RowProjectionDefinition<Table, Event>,
): Subscription {
  type Row = Table['$inferSelect'];
  const columns = getTableColumns(definition.table) as Record<string, PgColumn>;
  const keyColumn = columns[definition.key];
  if (!keyColumn) throw new Error(`${definition.name}: no column ${definition.key}`);
  const updateAll = Object.fromEntries(
    Object.entries(columns)
      .filter(([property]) => property !== definition.key)
      .map(([property, column]) => [property, sql.raw(`excluded."${column.name}"`)]),
  );

  return asSubscription({
    name: definition.name,
    kind: 'projection',
    tables: [getTableName(definition.table)],
    handles: definition.handles,
    async apply(recorded: readonly RecordedEvent[], { tx, push }) {
      const byKey = new Map<string, Array<{ event: Event; recorded: RecordedEvent }>>();
      for (const r of recorded) {
        const event = { type: r.type, data: r.data } as Event;
        const key = definition.keyOf(event);
        if (key === null) continue;
        const list = byKey.get(key) ?? [];
        list.push({ event, recorded: r });
        byKey.set(key, list);
      }
      if (byKey.size === 0) return;
      const before = await loadRows(tx, [...byKey.keys()]);
      const upserts: Row[] = [];
      const deletes: string[] = [];
      for (const [key, changes] of byKey) {
        const old = before.get(key) ?? null;
        let row = old;
        for (const { event, recorded } of changes) row = definition.evolve(row, event, recorded);
        if (row) upserts.push(row);
        else if (old) deletes.push(key);
        if (definition.live) {
          for (const update of definition.live(
            row,
            old,
            changes.map((c) => c.event),
          ))
            push(update);
        }
      }
      await write(tx, upserts, deletes);
    },
    /** The row of the event's key, folded afresh from every event of its stream (the stream holds all of a row's). */
    async repair(recorded: RecordedEvent, { tx, store }) {
      const key = definition.keyOf({ type: recorded.type, data: recorded.data } as Event);
      if (key === null) return;
      await loadRows(tx, [key]);
      const handled = new Set<string>(definition.handles);
      let row: Row | null = null;
      for (const r of (await store.readStream(recorded.streamId)).events) {
        const event = { type: r.type, data: r.data } as Event;
        if (handled.has(r.type) && definition.keyOf(event) === key) row = definition.evolve(row, event, r);
      }
      await write(tx, row ? [row] : [], row ? [] : [key]);
    },
  });

  /** Writes the final rows of a batch: upserts the rows that are, deletes the rows that are no more. */
  async function write(tx: Tx, upserts: Row[], deletes: string[]) {
    for (let i = 0; i < upserts.length; i += CHUNK) {
      await tx
        .insert(definition.table)
        .values(upserts.slice(i, i + CHUNK) as never)
        .onConflictDoUpdate({ target: keyColumn!, set: updateAll as never });
    }
    for (let i = 0; i < deletes.length; i += CHUNK) {
      await tx.delete(definition.table).where(inArray(keyColumn!, deletes.slice(i, i + CHUNK)));
    }
  }

  async function loadRows(tx: Tx, keys: string[]): Promise<Map<string, Row>> {
    const rows = new Map<string, Row>();
    const table: PgTable = definition.table;
    for (let i = 0; i < keys.length; i += CHUNK) {
      const found = (await tx
        .select()
        .from(table)
        .where(inArray(keyColumn!, keys.slice(i, i + CHUNK)))
        .for('update')) as Row[];
      for (const row of found) rows.set(String((row as Record<string, unknown>)[definition.key]), row);
    }
    return rows;
  }
}
