import { and, asc, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { queryRows } from "./raw-query.js";
import { columnNames, type RecordColumns, recordFields, recordset } from "./recordset.js";
import { evaluation_results, evaluations } from "./schema.js";

export type EvaluationRow = typeof evaluations.$inferSelect;
export type EvaluationResultRow = typeof evaluation_results.$inferSelect;
export type EvaluationStatus = EvaluationRow["status"];
export type ResultStatus = EvaluationResultRow["status"];

/** A run's statuses that can still change; COMPLETED, FAILED and CANCELLED are final. */
export const LIVE_STATUSES: readonly EvaluationStatus[] = ["PENDING", "RUNNING", "PAUSED"];
export const FINAL_RESULT_STATUSES: readonly ResultStatus[] = [
  "SCORED",
  "BOT_ERROR",
  "JUDGE_ERROR",
];

type NewEvaluationRow = typeof evaluations.$inferInsert;
type NewEvaluationResultRow = typeof evaluation_results.$inferInsert;

/** A result row's question columns: a copy of the question, taken when the run starts. */
const QUESTION_COLUMNS = {
  question_id: evaluation_results.question_id,
  position: evaluation_results.position,
  question_type: evaluation_results.question_type,
  question_text: evaluation_results.question_text,
  ground_truth: evaluation_results.ground_truth,
  ground_truths: evaluation_results.ground_truths,
  reference_context: evaluation_results.reference_context,
  relevant_ids: evaluation_results.relevant_ids,
  reference_contexts: evaluation_results.reference_contexts,
  /** The precomputed answer a run of bot kind `answers` judges. */
  supplied_answer: evaluation_results.supplied_answer,
} satisfies RecordColumns;
const RUN_COLUMNS = {
  workspace_id: evaluation_results.workspace_id,
  evaluation_id: evaluation_results.evaluation_id,
} satisfies RecordColumns;
/** A result's unique key: a run holds each question once. */
const RESULT_KEY = {
  evaluation_id: evaluation_results.evaluation_id,
  question_id: evaluation_results.question_id,
} satisfies RecordColumns;

/** The copy of one question an evaluation takes at start (its position is its index). */
export type EvaluationQuestion = Pick<
  NewEvaluationResultRow,
  Exclude<keyof typeof QUESTION_COLUMNS, "position">
>;

export type NewEvaluation = Pick<
  NewEvaluationRow,
  | "user_id"
  | "name"
  | "collection_id"
  | "question_set_id"
  | "question_set_version_id"
  | "question_set_version"
  | "bot_id"
  | "judge_llm_model_id"
  | "config"
> & { questions: EvaluationQuestion[] };

/**
 * Creates a PENDING evaluation and one PENDING result per question, in one transaction. The
 * result insert does nothing on a repeated (evaluation, question): a question listed twice is kept
 * once, and total_questions counts the rows written.
 */
export async function createEvaluation(
  db: Db,
  workspaceId: string,
  input: NewEvaluation,
): Promise<EvaluationRow> {
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(evaluations)
      .values({
        workspace_id: workspaceId,
        user_id: input.user_id,
        name: input.name,
        collection_id: input.collection_id ?? null,
        question_set_id: input.question_set_id ?? null,
        question_set_version_id: input.question_set_version_id ?? null,
        question_set_version: input.question_set_version ?? null,
        bot_id: input.bot_id,
        judge_llm_model_id: input.judge_llm_model_id,
        config: input.config,
      })
      .returning();
    if (!row) throw new Error("insert into evaluations returned no row");
    const rows = input.questions.map((q, position) => ({ ...q, position }));
    const written = await queryRows<{ n: number }>(
      tx as unknown as Db,
      sql`with w as (
            insert into ${evaluation_results} (${columnNames(RUN_COLUMNS)}, ${columnNames(QUESTION_COLUMNS)})
            select ${workspaceId}::uuid, ${row.id}::uuid, ${recordFields("r", QUESTION_COLUMNS)}
            from ${recordset("r", QUESTION_COLUMNS, rows)}
            on conflict (${columnNames(RESULT_KEY)}) do nothing
            returning 1)
          select count(*)::int as n from w`,
    );
    const total = written[0]?.n ?? 0;
    const [updated] = await tx
      .update(evaluations)
      .set({ total_questions: total })
      .where(eq(evaluations.id, row.id))
      .returning();
    return updated ?? row;
  });
  // Each item's claim and write look its row up by (evaluation_id, question_id). Without fresh
  // statistics (PGlite has no autovacuum; a server's runs a minute late) the planner may take the
  // (evaluation_id, position) index instead and filter every row of the run: O(n) per item.
  await db.execute(sql`analyze evaluation_results (evaluation_id, question_id, position, status)`);
  return created;
}

export async function getEvaluation(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<EvaluationRow | undefined> {
  const [row] = await db
    .select()
    .from(evaluations)
    .where(
      and(
        eq(evaluations.id, idParam(id)),
        eq(evaluations.workspace_id, workspaceId),
        isNull(evaluations.gmt_deleted),
      ),
    );
  return row;
}

/** For workers: a job names its evaluation, whoever owns it. */
export async function getEvaluationForWorker(
  db: Db,
  id: string,
): Promise<EvaluationRow | undefined> {
  const [row] = await db
    .select()
    .from(evaluations)
    .where(and(eq(evaluations.id, idParam(id)), isNull(evaluations.gmt_deleted)));
  return row;
}

export async function listEvaluations(
  db: Db,
  workspaceId: string,
  options: { limit?: number; offset?: number; statuses?: EvaluationStatus[] } = {},
): Promise<EvaluationRow[]> {
  return db
    .select()
    .from(evaluations)
    .where(
      and(
        eq(evaluations.workspace_id, workspaceId),
        isNull(evaluations.gmt_deleted),
        options.statuses?.length ? inArray(evaluations.status, options.statuses) : undefined,
      ),
    )
    .orderBy(desc(evaluations.gmt_created))
    .limit(options.limit ?? 100)
    .offset(options.offset ?? 0);
}

/** Soft delete; the results stay for audit until the row is purged. */
export async function deleteEvaluation(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(evaluations)
    .set({
      gmt_deleted: new Date(),
      // A deleted run stops: its queued items find it gone.
      status: sql`case when ${evaluations.status} in ('PENDING','RUNNING','PAUSED') then 'CANCELLED' else ${evaluations.status} end`,
    })
    .where(
      and(
        eq(evaluations.id, idParam(id)),
        eq(evaluations.workspace_id, workspaceId),
        isNull(evaluations.gmt_deleted),
      ),
    )
    .returning({ id: evaluations.id });
  return rows.length > 0;
}

export interface ResultQuery {
  statuses?: ResultStatus[];
  /** Only rows updated after this time (for streams). */
  updatedAfter?: Date;
  limit?: number;
  offset?: number;
}

export async function listEvaluationResults(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  query: ResultQuery = {},
): Promise<EvaluationResultRow[]> {
  const conditions = [
    eq(evaluation_results.evaluation_id, idParam(evaluationId)),
    eq(evaluation_results.workspace_id, workspaceId),
  ];
  if (query.statuses && query.statuses.length > 0) {
    conditions.push(inArray(evaluation_results.status, query.statuses));
  }
  if (query.updatedAfter) conditions.push(gt(evaluation_results.gmt_updated, query.updatedAfter));
  const rows = db
    .select()
    .from(evaluation_results)
    .where(and(...conditions))
    .orderBy(
      query.updatedAfter ? asc(evaluation_results.gmt_updated) : asc(evaluation_results.position),
    )
    .offset(query.offset ?? 0);
  // No limit means every row (a report of the whole run), never a silent cut-off.
  return query.limit === undefined ? rows : rows.limit(query.limit);
}

/** The columns a run's summary reads (see evals/runs/summary.ts), without answers and traces. */
export type SummaryColumns = Pick<
  EvaluationResultRow,
  | "status"
  | "question_type"
  | "score"
  | "passed"
  | "gate_status"
  | "judges"
  | "latency_ms"
  | "usage"
  | "retrieval"
>;

/**
 * Every row of a run, summary columns only, read a page at a time in question order: a run of
 * any size is summarized whole, at a fraction of its rows' size.
 */
export async function listSummaryRows(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  pageSize = 5_000,
): Promise<SummaryColumns[]> {
  const rows = await readRunInPages(pageSize, (after) =>
    db
      .select({
        position: evaluation_results.position,
        status: evaluation_results.status,
        question_type: evaluation_results.question_type,
        score: evaluation_results.score,
        passed: evaluation_results.passed,
        gate_status: evaluation_results.gate_status,
        judges: evaluation_results.judges,
        latency_ms: evaluation_results.latency_ms,
        usage: evaluation_results.usage,
        retrieval: evaluation_results.retrieval,
      })
      .from(evaluation_results)
      .where(runRowsAfter(workspaceId, evaluationId, after))
      .orderBy(asc(evaluation_results.position))
      .limit(pageSize),
  );
  return rows.map(({ position: _position, ...row }) => row);
}

/** The columns a report shows (see evals/reports/report.ts): no gate checks, traces or tool calls. */
const REPORT_COLUMNS = {
  position: evaluation_results.position,
  question_id: evaluation_results.question_id,
  question_type: evaluation_results.question_type,
  question_text: evaluation_results.question_text,
  ground_truth: evaluation_results.ground_truth,
  status: evaluation_results.status,
  rag_answer: evaluation_results.rag_answer,
  rag_citations: evaluation_results.rag_citations,
  rag_answer_sources: evaluation_results.rag_answer_sources,
  gate_status: evaluation_results.gate_status,
  judges: evaluation_results.judges,
  retrieval: evaluation_results.retrieval,
  score: evaluation_results.score,
  passed: evaluation_results.passed,
  error: evaluation_results.error,
  latency_ms: evaluation_results.latency_ms,
  attempts: evaluation_results.attempts,
  usage: evaluation_results.usage,
};

export type ReportColumns = Pick<EvaluationResultRow, keyof typeof REPORT_COLUMNS>;

/**
 * Every row of a run in question order, the report's columns only, read a page at a time, so no
 * one query's result (which the embedded database's never-shrinking memory must hold) is a whole
 * run's rows with their gate checks and traces. See docs/deploy.md, "Memory of ragjudge eval".
 */
export async function listReportRows(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  pageSize = 200,
): Promise<ReportColumns[]> {
  return readRunInPages(pageSize, (after) =>
    db
      .select(REPORT_COLUMNS)
      .from(evaluation_results)
      .where(runRowsAfter(workspaceId, evaluationId, after))
      .orderBy(asc(evaluation_results.position))
      .limit(pageSize),
  );
}

/** A run's rows past `after` in question order: the condition of each page of `readRunInPages`. */
function runRowsAfter(workspaceId: string, evaluationId: string, after: number) {
  return and(
    eq(evaluation_results.evaluation_id, idParam(evaluationId)),
    eq(evaluation_results.workspace_id, workspaceId),
    gt(evaluation_results.position, after),
  );
}

/** Reads pages (keyed on `position`, ascending) until one comes back short. */
async function readRunInPages<Row extends { position: number }>(
  pageSize: number,
  readPage: (after: number) => Promise<Row[]>,
): Promise<Row[]> {
  const rows: Row[] = [];
  let after = -1;
  for (;;) {
    const page = await readPage(after);
    rows.push(...page);
    const last = page.at(-1);
    if (!last || page.length < pageSize) return rows;
    after = last.position;
  }
}

/**
 * Moves a run from one of `from` to `to`; returns the row when it moved. Every transition names its
 * sources, so a CANCELLED (or other final) run never moves again.
 */
export async function transitionEvaluation(
  db: Db,
  evaluationId: string,
  from: readonly EvaluationStatus[],
  to: EvaluationStatus,
  extra: { status_reason?: string | null; workspaceId?: string } = {},
): Promise<EvaluationRow | undefined> {
  const now = new Date();
  const conditions = [
    eq(evaluations.id, idParam(evaluationId)),
    inArray(evaluations.status, [...from]),
    isNull(evaluations.gmt_deleted),
  ];
  if (extra.workspaceId) conditions.push(eq(evaluations.workspace_id, extra.workspaceId));
  const [row] = await db
    .update(evaluations)
    .set({
      status: to,
      gmt_updated: now,
      ...(extra.status_reason !== undefined ? { status_reason: extra.status_reason } : {}),
      ...(to === "RUNNING"
        ? {
            started_at: sql`coalesce(${evaluations.started_at}, now())`,
            // Items in flight were aborted when the run left RUNNING; a crashed worker's
            // reservation must not hold a resumed run's budget for ever.
            cost_reserved_usd: 0,
          }
        : {}),
      ...(to === "COMPLETED" || to === "FAILED" || to === "CANCELLED" ? { finished_at: now } : {}),
      ...(to === "RUNNING" || to === "PENDING" ? { finished_at: null } : {}),
    })
    .where(and(...conditions))
    .returning();
  return row;
}
