import type { SQL } from "drizzle-orm";
import type { Db } from "./open.js";

/** Runs raw SQL on either driver; both return `{ rows }`, which the shared Db type hides. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
