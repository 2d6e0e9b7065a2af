// Feedback on production answers (issue 24 §2): what people said about an answer, several per
// answer, scoped to the answer's user.

import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { rollupFeedbackCte } from "./answer-rollups.js";
import { queryRows } from "./raw-query.js";
import { answer_feedback, answer_records } from "./schema.js";

export type AnswerFeedbackRow = typeof answer_feedback.$inferSelect;
export type NewAnswerFeedback = Pick<
  typeof answer_feedback.$inferInsert,
  "workspace_id" | "answer_id" | "answer_received_at" | "thumb" | "score" | "comment"
>;

/** How an answer's feedback adds up, for lists. */
export interface FeedbackSummary {
  count: number;
  up: number;
  down: number;
}

/**
 * Stores one feedback and adds it to the rollups of its answer's minute, in one statement (the
 * answer is read from its day partition; feedback on an answer retention dropped adds nothing).
 */
export async function insertAnswerFeedback(
  db: Db,
  feedback: NewAnswerFeedback,
  options: { breakdownKeys?: readonly string[] } = {},
): Promise<AnswerFeedbackRow> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`with fb as (
        insert into ${answer_feedback} (workspace_id, answer_id, answer_received_at, thumb, score, comment)
        values (${feedback.workspace_id}, ${feedback.answer_id}, ${feedback.answer_received_at.toISOString()}::timestamptz,
          ${feedback.thumb ?? null}, ${feedback.score ?? null}::float8, ${feedback.comment ?? null})
        returning *
      ),
      answer as (
        select workspace_id, received_at, service, collection, model, metadata from ${answer_records}
        where workspace_id = ${feedback.workspace_id} and id = ${feedback.answer_id}
          and received_at = ${feedback.answer_received_at.toISOString()}::timestamptz
      ),
      ${rollupFeedbackCte("answer", "fb", options.breakdownKeys ?? [])}
      select * from fb`,
  );
  const row = rows[0];
  if (!row) throw new Error("insert into answer_feedback returned no row");
  return {
    id: String(row.id),
    workspace_id: String(row.workspace_id),
    answer_id: String(row.answer_id),
    answer_received_at: new Date(row.answer_received_at as string),
    thumb: (row.thumb as AnswerFeedbackRow["thumb"]) ?? null,
    score: row.score === null ? null : Number(row.score),
    comment: (row.comment as string | null) ?? null,
    created_at: new Date(row.created_at as string),
  };
}

/** An answer's feedback, oldest first. */
export async function listAnswerFeedback(
  db: Db,
  workspaceId: string,
  answerId: string,
): Promise<AnswerFeedbackRow[]> {
  return db
    .select()
    .from(answer_feedback)
    .where(
      and(
        eq(answer_feedback.workspace_id, workspaceId),
        eq(answer_feedback.answer_id, idParam(answerId)),
      ),
    )
    .orderBy(asc(answer_feedback.created_at), asc(answer_feedback.id));
}

/** Feedback counts per answer, for a page of answers. */
export async function summarizeAnswerFeedback(
  db: Db,
  workspaceId: string,
  answerIds: readonly string[],
): Promise<Map<string, FeedbackSummary>> {
  const summaries = new Map<string, FeedbackSummary>();
  if (answerIds.length === 0) return summaries;
  const rows = await db
    .select({
      answer_id: answer_feedback.answer_id,
      count: sql<number>`count(*)::int`,
      up: sql<number>`(count(*) filter (where ${answer_feedback.thumb} = 'up'))::int`,
      down: sql<number>`(count(*) filter (where ${answer_feedback.thumb} = 'down'))::int`,
    })
    .from(answer_feedback)
    .where(
      and(
        eq(answer_feedback.workspace_id, workspaceId),
        inArray(answer_feedback.answer_id, [...answerIds]),
      ),
    )
    .groupBy(answer_feedback.answer_id);
  for (const row of rows) {
    summaries.set(row.answer_id, {
      count: Number(row.count),
      up: Number(row.up),
      down: Number(row.down),
    });
  }
  return summaries;
}
