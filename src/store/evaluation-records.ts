import { randomUUID } from "node:crypto";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { dataErrorOf } from "./data-errors.js";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { queryRows } from "./raw-query.js";
import { columnNames, recordFields, recordset } from "./recordset.js";
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
    sql`insert into ${evaluation_records} (${columnNames(RECORD_COLUMNS)})
        select ${recordFields("r", RECORD_COLUMNS)}
        from ${recordset("r", RECORD_COLUMNS, withIds)}
        returning id, created_at`,
  );
  const createdAt = new Map(inserted.map((row) => [row.id, new Date(row.created_at)]));
  return withIds.map((row) => ({ id: row.id, created_at: createdAt.get(row.id) ?? new Date() }));
}

const RECORD_COLUMNS = {
  id: evaluation_records.id,
  workspace_id: evaluation_records.workspace_id,
  conversation_id: evaluation_records.conversation_id,
  message_id: evaluation_records.message_id,
  retrieval_record_id: evaluation_records.retrieval_record_id,
  generation_record_id: evaluation_records.generation_record_id,
  status: evaluation_records.status,
  action: evaluation_records.action,
  rule_version: evaluation_records.rule_version,
  config: evaluation_records.config,
  checks: evaluation_records.checks,
  scores: evaluation_records.scores,
  meta: evaluation_records.meta,
  input: evaluation_records.input,
  check_count: evaluation_records.check_count,
} satisfies Partial<Record<keyof NewEvaluationRecordRow, PgColumn>>;

/** Another user's record is indistinguishable from a missing one. */
export async function getEvaluationRecord(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<EvaluationRecordRow | undefined> {
  const [row] = await db
    .select()
    .from(evaluation_records)
    .where(
      and(eq(evaluation_records.id, idParam(id)), eq(evaluation_records.workspace_id, workspaceId)),
    );
  return row;
}

export async function listEvaluationRecords(
  db: Db,
  workspaceId: string,
  options: { limit?: number; beforeSeq?: number } = {},
): Promise<EvaluationRecordRow[]> {
  const conditions = [eq(evaluation_records.workspace_id, workspaceId)];
  if (options.beforeSeq !== undefined)
    conditions.push(lt(evaluation_records.seq, options.beforeSeq));
  return db
    .select()
    .from(evaluation_records)
    .where(and(...conditions))
    .orderBy(desc(evaluation_records.seq))
    .limit(Math.min(options.limit ?? 50, 500));
}

/** The repository shape the gate pipeline writes through (see gate/pipeline.ts). */
export function evaluationRecordRepo(db: Db) {
  return {
    insertRecords: (rows: NewEvaluationRecordRow[]) => insertEvaluationRecords(db, rows),
    rowErrorOf: dataErrorOf,
  };
}
