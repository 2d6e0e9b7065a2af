import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "./open.js";
import { evaluation_records } from "./schema.js";

export type EvaluationRecordRow = typeof evaluation_records.$inferSelect;
export type NewEvaluationRecordRow = typeof evaluation_records.$inferInsert;

/**
 * Inserts records in one statement: a batch is written whole or not at all, and nothing slow
 * runs while it is open (PGlite has a single connection).
 */
export async function insertEvaluationRecords(
  db: Db,
  rows: NewEvaluationRecordRow[],
): Promise<EvaluationRecordRow[]> {
  if (rows.length === 0) return [];
  return db.insert(evaluation_records).values(rows).returning();
}

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
  if (options.beforeSeq !== undefined) conditions.push(lt(evaluation_records.seq, options.beforeSeq));
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
  return { insertRecords: (rows: NewEvaluationRecordRow[]) => insertEvaluationRecords(db, rows) };
}
