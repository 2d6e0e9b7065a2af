import {
  and,
  asc,
  count,
  eq,
  gte,
  ilike,
  inArray,
  isNull,
  lte,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { EvaluationResultRow, EvaluationRow, ResultStatus } from "./evaluations.js";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { queryRows } from "./raw-query.js";
import { evaluation_results, evaluations } from "./schema.js";

// What the web app's pages read: filtered pages of a run's results with their total, the light
// columns two runs are compared on, pass counts per run, and the runs of a question set.

/** The filters of a run's results page and export; every field narrows, none is required. */
export interface ResultFilter {
  statuses?: ResultStatus[];
  passed?: boolean;
  /** Gate statuses (pass, partial, fail, skipped); "none" matches results with no verdict. */
  gate?: string[];
  questionTypes?: string[];
  scoreMin?: number;
  scoreMax?: number;
  /** Case-insensitive text in the question, ground truth or answer. */
  text?: string;
}

/** `%`, `_` and `\` are LIKE's own characters: searched for literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function resultConditions(workspaceId: string, evaluationId: string, filter: ResultFilter): SQL[] {
  const r = evaluation_results;
  const conditions: SQL[] = [
    eq(r.evaluation_id, idParam(evaluationId)),
    eq(r.workspace_id, workspaceId),
  ];
  if (filter.statuses?.length) conditions.push(inArray(r.status, filter.statuses));
  if (filter.passed !== undefined) conditions.push(eq(r.passed, filter.passed));
  if (filter.gate?.length) {
    const named = filter.gate.filter((g) => g !== "none");
    const either = [
      ...(named.length > 0 ? [inArray(r.gate_status, named)] : []),
      ...(filter.gate.includes("none") ? [isNull(r.gate_status)] : []),
    ];
    const gate = either.length === 1 ? either[0] : or(...either);
    if (gate) conditions.push(gate);
  }
  if (filter.questionTypes?.length) conditions.push(inArray(r.question_type, filter.questionTypes));
  if (filter.scoreMin !== undefined) conditions.push(gte(r.score, filter.scoreMin));
  if (filter.scoreMax !== undefined) conditions.push(lte(r.score, filter.scoreMax));
  if (filter.text?.trim()) {
    const pattern = likePattern(filter.text.trim());
    const text = or(
      ilike(r.question_text, pattern),
      ilike(r.ground_truth, pattern),
      ilike(r.rag_answer, pattern),
    );
    if (text) conditions.push(text);
  }
  return conditions;
}

/**
 * A page of a run's results matching the filter, in question order, with how many match in all.
 * No limit reads every match (an export).
 */
export async function queryEvaluationResults(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  filter: ResultFilter,
  page: { offset?: number; limit?: number } = {},
): Promise<{ rows: EvaluationResultRow[]; total: number }> {
  const where = and(...resultConditions(workspaceId, evaluationId, filter));
  const select = db
    .select()
    .from(evaluation_results)
    .where(where)
    .orderBy(asc(evaluation_results.position))
    .offset(page.offset ?? 0);
  const [rows, total] = await Promise.all([
    page.limit === undefined ? select : select.limit(page.limit),
    countResults(db, where),
  ]);
  return { rows, total };
}

async function countResults(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(evaluation_results).where(where);
  return row?.n ?? 0;
}

/** How much of an answer a list row carries: enough for two lines of a collapsed card. */
export const ANSWER_EXCERPT_CHARS = 240;

/**
 * What a collapsed row of the results list shows. The sources, trace, gate checks and judge
 * outputs (tens of kB a row) are left in the table: a page reads only these columns.
 */
export type ResultListRow = Pick<
  EvaluationResultRow,
  | "id"
  | "evaluation_id"
  | "question_id"
  | "position"
  | "question_type"
  | "question_text"
  | "status"
  | "attempts"
  | "latency_ms"
  | "gate_status"
  | "score"
  | "passed"
  | "error"
  | "error_kind"
  | "retrieval"
  | "gmt_updated"
> & {
  /** The answer's first ANSWER_EXCERPT_CHARS characters; null when there is no answer. */
  answer_excerpt: string | null;
  /** The answer's length in characters; null when there is no answer. */
  answer_length: number | null;
  /** USD the question's priced LLM calls cost (evals/runs/item-cost.ts); null when none were kept. */
  cost_usd: number | null;
  /** Some of the question's tokens are of a model without a price. */
  cost_price_unknown: boolean;
  /** Some LLM call was recorded for the question; false: its cost of 0 is no call, not a price. */
  llm_called: boolean;
};

/**
 * A page of the results list (light columns only) matching the filter, and the total; undefined
 * when the run is not one of the user's (or is deleted). One statement answers a page that has
 * rows: the run check and the count are uncorrelated subqueries of it, each computed once.
 */
export async function queryResultList(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  filter: ResultFilter,
  page: { offset?: number; limit: number },
): Promise<{ rows: ResultListRow[]; total: number } | undefined> {
  const r = evaluation_results;
  const where = and(...resultConditions(workspaceId, evaluationId, filter));
  const live = sql`exists (select 1 from ${evaluations} where ${and(
    eq(evaluations.id, idParam(evaluationId)),
    eq(evaluations.workspace_id, workspaceId),
    isNull(evaluations.gmt_deleted),
  )})`;
  const total = sql<number>`(select count(*)::int from ${r} where ${where})`;
  const found = await db
    .select({
      id: r.id,
      evaluation_id: r.evaluation_id,
      question_id: r.question_id,
      position: r.position,
      question_type: r.question_type,
      question_text: r.question_text,
      status: r.status,
      attempts: r.attempts,
      latency_ms: r.latency_ms,
      gate_status: r.gate_status,
      score: r.score,
      passed: r.passed,
      error: r.error,
      error_kind: r.error_kind,
      // A few numbers and ids: the list shows recall and MRR beside the score.
      retrieval: r.retrieval,
      gmt_updated: r.gmt_updated,
      answer_excerpt: sql<
        string | null
      >`left(${r.rag_answer}, ${sql.raw(String(ANSWER_EXCERPT_CHARS))})`,
      answer_length: sql<number | null>`char_length(${r.rag_answer})`,
      cost_usd: sql<number | null>`(${r.usage}->>'cost_usd')::float8`,
      cost_price_unknown: sql<boolean>`coalesce(jsonb_array_length(${r.usage}->'unpriced_models') > 0, false)`,
      llm_called: sql<boolean>`coalesce(jsonb_array_length(${r.usage}->'models') > 0, false)`,
      total,
    })
    .from(r)
    .where(and(where, live))
    .orderBy(asc(r.position))
    .offset(page.offset ?? 0)
    .limit(page.limit);
  if (found.length > 0) {
    return { rows: found.map(({ total: _total, ...row }) => row), total: found[0]?.total ?? 0 };
  }
  // No rows: the run may be missing, or the page past the end of the matches.
  const [empty] = await queryRows<{ live: boolean; total: number }>(
    db,
    sql`select ${live} as live, ${total} as total`,
  );
  return empty?.live ? { rows: [], total: empty.total } : undefined;
}

/** The columns two runs are compared on: no answers, sources or judges. */
export type CompareColumns = Pick<
  EvaluationResultRow,
  | "id"
  | "question_id"
  | "position"
  | "question_type"
  | "question_text"
  | "ground_truth"
  | "ground_truths"
  | "status"
  | "score"
  | "passed"
  | "gate_status"
>;

export async function listCompareRows(
  db: Db,
  workspaceId: string,
  evaluationId: string,
): Promise<CompareColumns[]> {
  const r = evaluation_results;
  return db
    .select({
      id: r.id,
      question_id: r.question_id,
      position: r.position,
      question_type: r.question_type,
      question_text: r.question_text,
      ground_truth: r.ground_truth,
      ground_truths: r.ground_truths,
      status: r.status,
      score: r.score,
      passed: r.passed,
      gate_status: r.gate_status,
    })
    .from(r)
    .where(and(eq(r.evaluation_id, idParam(evaluationId)), eq(r.workspace_id, workspaceId)))
    .orderBy(asc(r.position));
}

/** SCORED and passed results per run, for pass rates (a run with none is absent). */
export async function evaluationPassCounts(
  db: Db,
  workspaceId: string,
  evaluationIds: readonly string[],
): Promise<Map<string, { scored: number; passed: number }>> {
  if (evaluationIds.length === 0) return new Map();
  const r = evaluation_results;
  const rows = await db
    .select({
      evaluation_id: r.evaluation_id,
      scored: sql<number>`(count(*) filter (where ${r.status} = 'SCORED'))::int`,
      passed: sql<number>`(count(*) filter (where ${r.status} = 'SCORED' and ${r.passed}))::int`,
    })
    .from(r)
    .where(and(eq(r.workspace_id, workspaceId), inArray(r.evaluation_id, [...evaluationIds])))
    .groupBy(r.evaluation_id);
  return new Map(rows.map(({ evaluation_id, ...counts }) => [evaluation_id, counts]));
}

/** Every live run made on a question set, oldest first. */
export async function listEvaluationsOfQuestionSet(
  db: Db,
  workspaceId: string,
  questionSetId: string,
): Promise<EvaluationRow[]> {
  return db
    .select()
    .from(evaluations)
    .where(
      and(
        eq(evaluations.workspace_id, workspaceId),
        eq(evaluations.question_set_id, idParam(questionSetId)),
        isNull(evaluations.gmt_deleted),
      ),
    )
    .orderBy(asc(evaluations.gmt_created));
}
