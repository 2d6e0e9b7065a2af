// Traces that could not become answer records (issue 24 §1.1): one row per (user, trace), the
// reason in words; retention deletes them with the answers of their day (answer-records.ts).

import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "./open.js";
import { rejected_traces } from "./schema.js";

export type RejectedTraceRow = typeof rejected_traces.$inferSelect;
export type NewRejectedTraceRow = Omit<typeof rejected_traces.$inferInsert, "id">;

/** Stores the rows; a trace already stored for its user is left as it was (a re-sent export). */
export async function insertRejectedTraces(
  db: Db,
  rows: readonly NewRejectedTraceRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(rejected_traces)
    .values([...rows])
    .onConflictDoNothing();
}

/** The user's rejected traces, newest first. */
export async function listRejectedTraces(
  db: Db,
  workspaceId: string,
  limit: number,
): Promise<RejectedTraceRow[]> {
  return db
    .select()
    .from(rejected_traces)
    .where(eq(rejected_traces.workspace_id, workspaceId))
    .orderBy(desc(rejected_traces.received_at), desc(rejected_traces.id))
    .limit(limit);
}

export async function countRejectedTraces(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(rejected_traces)
    .where(and(eq(rejected_traces.workspace_id, workspaceId)));
  return row?.n ?? 0;
}
