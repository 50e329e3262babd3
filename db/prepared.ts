/**
 * Statements every public write runs, built once per connection. Drizzle builds a
 * query's SQL text and parameters again on each call (30–40 µs, more than SQLite
 * takes to run most of these); a prepared query (`.prepare()`, its values as
 * `sql.placeholder`) only fills its values in. The statement's compiled form is
 * the connection's own cache either way (db/index.ts).
 *
 * A query belongs to the connection of the executor it was first asked through;
 * the database and every transaction open on it share that connection.
 */
import { getTableColumns, sql, type Placeholder } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Executor } from "./index";

type Connection = object;

// drizzle keeps the connection's session on the database and on each of its transactions alike.
const connectionOf = (exec: Executor): Connection => (exec as unknown as { session: Connection }).session;

/** A query built by `build` once per connection, then reused: `prepared((q) => q.select()…prepare())`. */
export function prepared<Q>(build: (exec: Executor) => Q): (exec: Executor) => Q {
  const byConnection = new WeakMap<Connection, Q>();
  return (exec) => {
    const connection = connectionOf(exec);
    let query = byConnection.get(connection);
    if (!query) {
      query = build(exec);
      byConnection.set(connection, query);
    }
    return query;
  };
}

type Insertable<T extends SQLiteTable> = T["$inferInsert"];
type Stored<T extends SQLiteTable> = T["$inferSelect"];

/**
 * `insert into table (…) values (…) returning *` for a row, prepared once per set of
 * columns given (a column left out takes the table's default, as in drizzle's own
 * insert). Tables whose columns compute a default in JavaScript are refused: a
 * prepared statement would keep the first value computed.
 */
export function insertReturning<T extends SQLiteTable>(table: T): (exec: Executor, row: Insertable<T>) => Stored<T> {
  const columns = Object.entries(getTableColumns(table));
  const computed = columns.filter(([, c]) => c.defaultFn || c.onUpdateFn).map(([name]) => name);
  if (computed.length) throw new Error(`insertReturning: ${computed.join(", ")} compute their default in JavaScript`);
  const byColumns = new Map<string, (exec: Executor) => { get(values: Record<string, unknown>): unknown }>();
  return (exec, row) => {
    const values = row as Record<string, unknown>;
    const given = columns.filter(([name]) => values[name] !== undefined).map(([name]) => name);
    const key = given.join(",");
    let query = byColumns.get(key);
    if (!query) {
      const placeholders: Record<string, Placeholder> = {};
      for (const name of given) placeholders[name] = sql.placeholder(name);
      query = prepared((q) =>
        q
          .insert(table)
          .values(placeholders as Insertable<T>)
          .returning()
          .prepare(),
      );
      byColumns.set(key, query);
    }
    return query(exec).get(values) as Stored<T>;
  };
}
