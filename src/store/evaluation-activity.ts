import { and, asc, gt, isNull } from "drizzle-orm";
import type { Db } from "./open.js";
import { evaluations } from "./schema.js";

/** What a worker's log says about a run. */
export type EvaluationActivity = Pick<
  typeof evaluations.$inferSelect,
  | "id"
  | "name"
  | "status"
  | "status_reason"
  | "completed_questions"
  | "total_questions"
  | "bot_error_count"
  | "judge_error_count"
  | "average_score"
  | "gmt_updated"
>;

/**
 * Every user's runs changed after `since`, oldest change first: for a worker process logging the
 * state changes of the runs it serves (it works for all users, so this is not scoped to one).
 */
export async function evaluationsUpdatedSince(
  db: Db,
  since: Date,
  limit = 500,
): Promise<EvaluationActivity[]> {
  return db
    .select({
      id: evaluations.id,
      name: evaluations.name,
      status: evaluations.status,
      status_reason: evaluations.status_reason,
      completed_questions: evaluations.completed_questions,
      total_questions: evaluations.total_questions,
      bot_error_count: evaluations.bot_error_count,
      judge_error_count: evaluations.judge_error_count,
      average_score: evaluations.average_score,
      gmt_updated: evaluations.gmt_updated,
    })
    .from(evaluations)
    .where(and(gt(evaluations.gmt_updated, since), isNull(evaluations.gmt_deleted)))
    .orderBy(asc(evaluations.gmt_updated))
    .limit(limit);
}
