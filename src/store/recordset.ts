import { Placeholder, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

// Batched writes send their rows as one jsonb parameter expanded by jsonb_to_recordset: with one
// parameter per value, a batch of 17-column rows was about 3x slower on PGlite. Whether the
// statement around it is a query builder or raw SQL, the batch's column names and types come
// from schema.ts's column objects, so they cannot drift from the schema.

/** The columns a batch carries, by the key each row gives them under. */
export type RecordColumns = Record<string, PgColumn>;

/**
 * `jsonb_to_recordset(<rows>::jsonb) as <alias>(<key> <type>, ...)`: a FROM item whose fields are
 * the rows' `columns`, each typed as its column. `rows` may be a placeholder (a prepared
 * statement's), filled with the rows' JSON text.
 */
export function recordset(
  alias: string,
  columns: RecordColumns,
  rows: readonly object[] | Placeholder,
): SQL {
  const fields = Object.entries(columns).map(
    ([key, column]) => sql`${sql.identifier(key)} ${sql.raw(column.getSQLType())}`,
  );
  const json = rows instanceof Placeholder ? rows : JSON.stringify(rows);
  return sql`jsonb_to_recordset(${json}::jsonb) as ${sql.identifier(alias)}(${sql.join(fields, sql`, `)})`;
}

/** The columns' names, for an insert's column list. */
export function columnNames(columns: RecordColumns): SQL {
  return sql.join(
    Object.values(columns).map((column) => sql.identifier(column.name)),
    sql`, `,
  );
}

/** `<alias>.<key>` for each of the columns, in the same order: an insert's select list. */
export function recordFields(alias: string, columns: RecordColumns): SQL {
  return sql.join(
    Object.keys(columns).map((key) => recordField(alias, key)),
    sql`, `,
  );
}

/** `<alias>.<key>`: one field of a recordset, in a query builder's conditions and values. */
export function recordField(alias: string, key: string): SQL {
  return sql`${sql.identifier(alias)}.${sql.identifier(key)}`;
}
