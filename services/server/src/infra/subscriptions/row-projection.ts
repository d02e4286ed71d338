import { getTableColumns, is, sql, SQL } from 'drizzle-orm';
import { getTableConfig, PgJson, PgJsonb, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { queryRows, sqlWithParams, type Tx } from '../db/database.js';
import type { RecordedEvent } from '../event-store/event-store.port.js';
import { asSubscription, type LiveUpdate, type Subscription } from './subscription.js';

/** Rows per statement: a batch of a few thousand rows stays one round trip, and a parameter stays a few megabytes. */
const CHUNK = 2000;

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
 * last value of each row with one multi-row upsert and one delete. The rows travel as one JSON parameter, which the
 * database turns into the table's rows (`jsonb_populate_recordset`): a statement of a thousand rows costs the process
 * one `JSON.stringify`, not a query builder's thousands of parameters.
 */
export function rowProjection<Table extends PgTable, Event extends { type: string; data: unknown }>(
  definition: RowProjectionDefinition<Table, Event>,
): Subscription {
  type Row = Table['$inferSelect'];
  const columns = getTableColumns(definition.table) as Record<string, PgColumn>;
  const keyColumn = columns[definition.key];
  if (!keyColumn) throw new Error(`${definition.name}: no column ${definition.key}`);
  const tableName = getTableConfig(definition.table).name;
  const writer = rowWriter(definition.table, columns, keyColumn);

  return asSubscription({
    name: definition.name,
    kind: 'projection',
    tables: [tableName],
    handles: definition.handles,
    async apply(recorded: readonly RecordedEvent[], { tx, push }) {
      const byKey = new Map<string, Array<{ event: Event; recorded: RecordedEvent }>>();
      for (const r of recorded) {
        const event = { type: r.type, data: r.data } as Event;
        const key = definition.keyOf(event);
        if (key === null) continue;
        const list = byKey.get(key);
        if (list) list.push({ event, recorded: r });
        else byKey.set(key, [{ event, recorded: r }]);
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
      await writer.write(tx, upserts, deletes);
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
      await writer.write(tx, row ? [row] : [], row ? [] : [key]);
    },
  });

  /** The rows of these keys, locked: one statement with the keys as one array parameter. */
  async function loadRows(tx: Tx, keys: string[]): Promise<Map<string, Row>> {
    const rows = new Map<string, Row>();
    const table: PgTable = definition.table;
    for (let i = 0; i < keys.length; i += CHUNK) {
      const found = (await tx
        .select()
        .from(table)
        .where(sql`${keyColumn} = any(${sql.param(keys.slice(i, i + CHUNK))})`)
        .for('update')) as Row[];
      for (const row of found) rows.set(String((row as Record<string, unknown>)[definition.key]), row);
    }
    return rows;
  }
}

/**
 * Writes a table's rows as one JSON parameter: upserts the rows that are (every column set from the row), deletes the
 * keys that are no more. A value is what the query builder would send for its column (`mapToDriverValue`; JSON columns
 * as they are). A row that leaves a column with a default undefined is written by the query builder, which knows the
 * column's default.
 */
export function rowWriter(table: PgTable, columns: Record<string, PgColumn>, keyColumn: PgColumn) {
  const { name, schema } = getTableConfig(table);
  const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
  const qualified = schema ? `${quote(schema)}.${quote(name)}` : quote(name);
  const entries = Object.entries(columns).map(([property, column]) => ({
    property,
    column,
    json: is(column, PgJsonb) || is(column, PgJson),
  }));
  const names = entries.map((e) => quote(e.column.name)).join(', ');
  const updates = entries
    .filter((e) => e.column !== keyColumn)
    .map((e) => `${quote(e.column.name)} = excluded.${quote(e.column.name)}`)
    .join(', ');
  const upsertSql =
    `insert into ${qualified} (${names}) select ${names} from jsonb_populate_recordset(null::${qualified}, $1::jsonb) ` +
    `on conflict (${quote(keyColumn.name)}) do ${updates ? `update set ${updates}` : 'nothing'}`;
  const deleteSql = `delete from ${qualified} where ${quote(keyColumn.name)} = any($1)`;
  const updateAll = Object.fromEntries(
    entries.filter((e) => e.column !== keyColumn).map((e) => [e.property, sql.raw(`excluded.${quote(e.column.name)}`)]),
  );

  /** The row as the database's JSON of the table's row type; null when a column with a default is left undefined. */
  const toJson = (row: Record<string, unknown>): Record<string, unknown> | null => {
    const out: Record<string, unknown> = {};
    for (const { property, column, json } of entries) {
      let value = row[property];
      if (value === undefined) {
        if (column.defaultFn) value = column.defaultFn();
        else if (column.default !== undefined) {
          if (is(column.default, SQL)) return null;
          value = column.default;
        } else value = null;
      }
      if (value !== null && !json) value = column.mapToDriverValue(value);
      out[column.name] = typeof value === 'bigint' ? value.toString() : value;
    }
    return out;
  };

  return {
    async write(tx: Tx, upserts: readonly object[], deletes: readonly string[]) {
      for (let i = 0; i < upserts.length; i += CHUNK) {
        const chunk = upserts.slice(i, i + CHUNK) as Array<Record<string, unknown>>;
        const rows = chunk.map(toJson);
        if (rows.every((r) => r !== null)) {
          await queryRows(tx, sqlWithParams(upsertSql, [JSON.stringify(rows)]));
        } else {
          await tx.insert(table).values(chunk).onConflictDoUpdate({ target: keyColumn, set: updateAll });
        }
      }
      for (let i = 0; i < deletes.length; i += CHUNK) {
        await queryRows(tx, sqlWithParams(deleteSql, [deletes.slice(i, i + CHUNK)]));
      }
    },
  };
}
