import { createHash } from "node:crypto";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
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

const dialect = new PgDialect();

/**
 * queryRows for a statement run thousands of times with one text (an evaluation's claims and
 * result writes): on a PostgreSQL server a named statement. It goes through drizzle's own session,
 * so drizzle's type parsers and a transaction's connection still apply; PGlite has no named
 * statements and runs it as queryRows does.
 */
export async function queryRowsNamed<T>(db: Db, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const prepared = db._.session.prepareQuery(built, undefined, statementName(built.sql), false);
  const result = (await prepared.execute()) as unknown as { rows: T[] };
  return result.rows;
}
