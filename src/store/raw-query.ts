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
 * Runs a query builder's statement as a named one (on a PostgreSQL server: parsed and planned once
 * per connection), for statements run thousands of times with one text: an evaluation's claims and
 * result writes, about 10% less server CPU a question (docs/deploy.md). Through drizzle's own
 * `prepare`, so its row mapping and a transaction's connection still apply; PGlite has no named
 * statements and runs it as any other.
 */
export async function executeNamed<T>(query: {
  toSQL(): { sql: string };
  prepare(name: string): { execute(): Promise<T> };
}): Promise<T> {
  return query.prepare(statementName(query.toSQL().sql)).execute();
}
