import { createHash } from "node:crypto";
import type { SQL } from "drizzle-orm";
import type { Db } from "./open.js";

/** Runs raw SQL on either driver; both return `{ rows }`, which the shared Db type hides. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * A server-side statement name for `text`: a hash of it, so one name never stands for two texts.
 * Named statements are parsed once per connection and the server can keep their plans.
 */
export function statementName(text: string): string {
  return `rj_${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;
}

/**
 * A query builder's statement prepared under a name (on a PostgreSQL server: parsed and planned
 * once per connection), for statements run thousands of times with one text: an evaluation's
 * claims and result writes, about 10% less server CPU a question (docs/deploy.md). Through
 * drizzle's own `prepare`, so its row mapping still applies; PGlite has no named statements and
 * runs it as any other. Its values are placeholders, filled at `execute`.
 */
export function prepareNamed<P>(query: { toSQL(): { sql: string }; prepare(name: string): P }): P {
  return query.prepare(statementName(query.toSQL().sql));
}

/**
 * A statement built and prepared once per database handle (`prepare(db)`), then only executed:
 * building a query with CTEs costs more client CPU than the database spends running it.
 */
export function preparedPerDb<P>(prepare: (db: Db) => P): (db: Db) => P {
  const prepared = new WeakMap<Db, P>();
  return (db) => {
    let statement = prepared.get(db);
    if (!statement) {
      statement = prepare(db);
      prepared.set(db, statement);
    }
    return statement;
  };
}
