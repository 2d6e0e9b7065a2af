import { type SQL, sql } from "drizzle-orm";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` has a UUID's shape (rows' ids are UUIDs; documents' and chunks' are text). */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/**
 * A caller's id as a uuid parameter, for every query that looks a row up by an id from outside
 * (a URL, a CLI argument, a job). A malformed id becomes NULL, which no row's id equals: it reads
 * as not found, as an unknown or another user's id does, instead of failing the statement with
 * PostgreSQL's "invalid input syntax for type uuid". Works in the query builder
 * (`eq(table.id, idParam(id))`) and in raw SQL (`where r.evaluation_id = ${idParam(id)}`).
 */
export function idParam(id: string): SQL {
  return isUuid(id) ? sql`${id}::uuid` : sql`null::uuid`;
}
