import { randomUUID } from "node:crypto";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import { dataErrorOf } from "./data-errors.js";
import type { Db } from "./open.js";
import { queryRows } from "./raw-query.js";
import { evaluation_records } from "./schema.js";

export type EvaluationRecordRow = typeof evaluation_records.$inferSelect;
export type NewEvaluationRecordRow = typeof evaluation_records.$inferInsert;

/**
 * Inserts records in one statement: a batch is written whole or not at all, and nothing slow
 * runs while it is open (PGlite has a single connection). The rows travel as one jsonb
 * parameter expanded by jsonb_to_recordset: with 17 columns a row, one parameter per value made
 * the batch about 3x slower on PGlite.
 */
export async function insertEvaluationRecords(
  db: Db,
  rows: NewEvaluationRecordRow[],
): Promise<Array<{ id: string; created_at: Date }>> {
  if (rows.length === 0) return [];
  // Ids are chosen here so results map back to rows without relying on RETURNING's order.
  const withIds = rows.map((row) => ({ ...row, id: row.id ?? randomUUID() }));
  const inserted = await queryRows<{ id: string; created_at: Date | string }>(
    db,
    sql`insert into evaluation_records (${sql.raw(INSERT_COLUMNS.join(", "))})
        select ${sql.raw(INSERT_COLUMNS.join(", "))}
        from jsonb_to_recordset(${JSON.stringify(withIds)}::jsonb) as r(${sql.raw(RECORDSET_TYPES)})
        returning id, created_at`,
  );
  const createdAt = new Map(inserted.map((row) => [row.id, new Date(row.created_at)]));
  return withIds.map((row) => ({ id: row.id, created_at: createdAt.get(row.id) ?? new Date() }));
}

const RECORDSET_COLUMNS = {
  id: "uuid",
  user_id: "uuid",
  conversation_id: "text",
  message_id: "text",
  retrieval_record_id: "text",
  generation_record_id: "text",
  status: "text",
  action: "text",
  rule_version: "text",
  config: "jsonb",
  checks: "jsonb",
  scores: "jsonb",
  meta: "jsonb",
  input: "jsonb",
  check_count: "integer",
} satisfies Partial<Record<keyof NewEvaluationRecordRow, string>>;
const INSERT_COLUMNS = Object.keys(RECORDSET_COLUMNS);
const RECORDSET_TYPES = Object.entries(RECORDSET_COLUMNS)
  .map(([name, type]) => `${name} ${type}`)
  .join(", ");

/** Another user's record is indistinguishable from a missing one. */
export async function getEvaluationRecord(
  db: Db,
  userId: string,
  id: string,
): Promise<EvaluationRecordRow | undefined> {
  if (!UUID.test(id)) return undefined;
  const [row] = await db
    .select()
    .from(evaluation_records)
    .where(and(eq(evaluation_records.id, id), eq(evaluation_records.user_id, userId)));
  return row;
}

export async function listEvaluationRecords(
  db: Db,
  userId: string,
  options: { limit?: number; beforeSeq?: number } = {},
): Promise<EvaluationRecordRow[]> {
  const conditions = [eq(evaluation_records.user_id, userId)];
  if (options.beforeSeq !== undefined)
    conditions.push(lt(evaluation_records.seq, options.beforeSeq));
  return db
    .select()
    .from(evaluation_records)
    .where(and(...conditions))
    .orderBy(desc(evaluation_records.seq))
    .limit(Math.min(options.limit ?? 50, 500));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The repository shape the gate pipeline writes through (see gate/pipeline.ts). */
export function evaluationRecordRepo(db: Db) {
  return {
    insertRecords: (rows: NewEvaluationRecordRow[]) => insertEvaluationRecords(db, rows),
    rowErrorOf: dataErrorOf,
  };
}
