// The item protocol of an evaluation run, as workers drive it: the questions a (re)start must
// enqueue; an item claimed for one job (a batch in one statement), released back to PENDING, or
// finished (its result written and the run's counts moved in the same statement); the run's counts
// recomputed from its rows; rows reset for a resume or retry; the statuses workers watch for pause
// and cancel, and runs whose launch was lost. The API's reads of the same tables are in
// evaluations.ts; evals/runs/item-runner.ts is the worker's side.
// Workers find a run by its id alone (a job names its run, whoever owns it); every statement here
// is keyed on the run's id, taken from a row the run's workspace created.

import {
  and,
  asc,
  eq,
  exists,
  getTableColumns,
  gt,
  inArray,
  isNull,
  lt,
  or,
  sql,
} from "drizzle-orm";
import {
  type EvaluationResultRow,
  type EvaluationRow,
  type EvaluationStatus,
  FINAL_RESULT_STATUSES,
  type ResultStatus,
} from "./evaluations.js";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { prepareNamed, preparedPerDb } from "./raw-query.js";
import { type RecordColumns, recordField, recordset } from "./recordset.js";
import { evaluation_results, evaluations } from "./schema.js";

/** Question ids whose result is not final yet: what a (re)start must enqueue. */
export async function unfinishedQuestionIds(db: Db, evaluationId: string): Promise<string[]> {
  const rows = await db
    .select({ question_id: evaluation_results.question_id })
    .from(evaluation_results)
    .where(
      and(
        eq(evaluation_results.evaluation_id, idParam(evaluationId)),
        inArray(evaluation_results.status, ["PENDING", "RUNNING"]),
      ),
    )
    .orderBy(asc(evaluation_results.position));
  return rows.map((row) => row.question_id);
}

export interface ResultClaim {
  evaluationId: string;
  questionId: string;
  jobId: string;
}

/**
 * Takes one question for a job. It succeeds when the run is RUNNING and the row is PENDING, or
 * RUNNING under this same job (pg-boss retries an expired job under its id, so a crashed worker's
 * item is taken over); a duplicate job for a row another job holds, or a final row, gets nothing.
 */
export async function claimResult(
  db: Db,
  evaluationId: string,
  questionId: string,
  jobId: string,
): Promise<EvaluationResultRow | undefined> {
  return (await claimResults(db, [{ evaluationId, questionId, jobId }]))[0];
}

/** A claim's fields in the batch: the row's run and question, and the job taking it. */
const CLAIM_COLUMNS = {
  e: evaluation_results.evaluation_id,
  q: evaluation_results.question_id,
  j: evaluation_results.job_id,
} satisfies RecordColumns;

/** claimResults' statement; its one parameter, `rows`, is the claims' JSON. */
const claimStatement = preparedPerDb((db) => {
  const r = evaluation_results;
  const i = (key: keyof typeof CLAIM_COLUMNS) => recordField("i", key);
  return prepareNamed(
    db
      .update(r)
      .set({
        status: "RUNNING",
        job_id: i("j"),
        attempts: sql`${r.attempts} + 1`,
        gmt_updated: sql`now()`,
      })
      .from(recordset("i", CLAIM_COLUMNS, sql.placeholder("rows")))
      .where(
        and(
          eq(r.evaluation_id, i("e")),
          eq(r.question_id, i("q")),
          or(eq(r.status, "PENDING"), and(eq(r.status, "RUNNING"), eq(r.job_id, i("j")))),
          exists(
            db
              .select({ id: evaluations.id })
              .from(evaluations)
              .where(
                and(
                  eq(evaluations.id, r.evaluation_id),
                  eq(evaluations.status, "RUNNING"),
                  isNull(evaluations.gmt_deleted),
                ),
              ),
          ),
        ),
      )
      .returning(getTableColumns(r)),
  );
});

/**
 * claimResult for many jobs in one statement (aligned with `claims`). Two claims of one row in
 * the batch update it once: the job named in the row afterwards holds it, the other gets nothing.
 */
export async function claimResults(
  db: Db,
  claims: readonly ResultClaim[],
): Promise<(EvaluationResultRow | undefined)[]> {
  if (claims.length === 0) return [];
  const input = claims.map((c) => ({ e: c.evaluationId, q: c.questionId, j: c.jobId }));
  const rows = await claimStatement(db).execute({ rows: JSON.stringify(input) });
  const held = new Map(
    rows.map((row) => [`${row.evaluation_id} ${row.question_id} ${row.job_id}`, row]),
  );
  return claims.map((c) => held.get(`${c.evaluationId} ${c.questionId} ${c.jobId}`));
}

/** Gives a claimed row back (its calls were aborted by pause or cancel); resume takes it again. */
export async function releaseResult(
  db: Db,
  evaluationId: string,
  questionId: string,
  jobId: string,
): Promise<void> {
  await db
    .update(evaluation_results)
    .set({ status: "PENDING", job_id: null, gmt_updated: new Date() })
    .where(
      and(
        eq(evaluation_results.evaluation_id, idParam(evaluationId)),
        eq(evaluation_results.question_id, questionId),
        eq(evaluation_results.status, "RUNNING"),
        eq(evaluation_results.job_id, jobId),
      ),
    );
}

/** The columns a finished item writes, by name. */
const WRITE_COLUMNS = {
  status: evaluation_results.status,
  latency_ms: evaluation_results.latency_ms,
  usage: evaluation_results.usage,
  rag_answer: evaluation_results.rag_answer,
  rag_answer_sources: evaluation_results.rag_answer_sources,
  rag_citations: evaluation_results.rag_citations,
  rag_tool_calls: evaluation_results.rag_tool_calls,
  gate_status: evaluation_results.gate_status,
  gate: evaluation_results.gate,
  judges: evaluation_results.judges,
  retrieval: evaluation_results.retrieval,
  llm_judge_score: evaluation_results.llm_judge_score,
  llm_judge_reasoning: evaluation_results.llm_judge_reasoning,
  score: evaluation_results.score,
  passed: evaluation_results.passed,
  error: evaluation_results.error,
  error_kind: evaluation_results.error_kind,
} satisfies RecordColumns;

/** Everything a finished item writes: its row's columns, with a final status and a latency. */
export type ResultWrite = Omit<
  Pick<EvaluationResultRow, keyof typeof WRITE_COLUMNS>,
  "status" | "latency_ms" | "retrieval" | "error_kind"
> & {
  status: "SCORED" | "BOT_ERROR" | "JUDGE_ERROR";
  latency_ms: number;
  /** Absent reads as none: a question without relevant items has no retrieval metrics. */
  retrieval?: EvaluationResultRow["retrieval"];
  /** A BOT_ERROR's kind; absent reads as none. */
  error_kind?: EvaluationResultRow["error_kind"];
};

/** A result's outputs, all absent: a reset row, or a bot error's write. */
export const NO_OUTPUTS = {
  usage: null,
  rag_answer: null,
  rag_answer_sources: null,
  rag_citations: null,
  rag_tool_calls: null,
  gate_status: null,
  gate: null,
  judges: null,
  retrieval: null,
  llm_judge_score: null,
  llm_judge_reasoning: null,
  score: null,
  passed: null,
} as const satisfies Omit<ResultWrite, "status" | "latency_ms" | "error">;

export interface FinishOutcome {
  /** False when the row was final already or held by another job: nothing changed. */
  written: boolean;
  evaluation?: Pick<
    EvaluationRow,
    | "status"
    | "completed_questions"
    | "total_questions"
    | "scored_questions"
    | "bot_error_count"
    | "judge_error_count"
  >;
}

/**
 * Writes a final result and moves the run's counters in one statement, only if this job still
 * holds the row: a second write of the same item (at-least-once delivery) changes nothing. The
 * last item of a RUNNING run completes it; a PAUSED or CANCELLED run keeps its status.
 */
export async function finishResult(
  db: Db,
  evaluationId: string,
  questionId: string,
  jobId: string,
  write: ResultWrite,
): Promise<FinishOutcome> {
  const [outcome] = await finishResults(db, [{ evaluationId, questionId, jobId, write }]);
  return outcome ?? { written: false };
}

export interface ResultFinish extends ResultClaim {
  write: ResultWrite;
}

/**
 * finishResult for many items (aligned with `finishes`): one statement per evaluation, each
 * writing its rows and moving its run's counters once. Evaluations go one at a time, in id
 * order, so two workers' batches never hold two runs' rows in opposite orders.
 */
export async function finishResults(
  db: Db,
  finishes: readonly ResultFinish[],
): Promise<FinishOutcome[]> {
  const outcomes = new Map<ResultFinish, FinishOutcome>();
  const byEvaluation = new Map<string, ResultFinish[]>();
  for (const finish of finishes) {
    const group = byEvaluation.get(finish.evaluationId) ?? [];
    group.push(finish);
    byEvaluation.set(finish.evaluationId, group);
  }
  for (const evaluationId of [...byEvaluation.keys()].sort()) {
    const group = byEvaluation.get(evaluationId) ?? [];
    const input = group.map(({ questionId, jobId, write }) => ({
      ...write,
      usage: write.usage ?? null,
      question_id: questionId,
      job_id: jobId,
    }));
    const rows = await finishStatement(db).execute({ evaluationId, rows: JSON.stringify(input) });
    const [row] = rows;
    const written = new Set(row?.written ?? []);
    for (const finish of group) {
      if (!row || !written.has(`${finish.questionId} ${finish.jobId}`)) {
        outcomes.set(finish, { written: false });
        continue;
      }
      const { written: _ignored, ...evaluation } = row;
      outcomes.set(finish, { written: true, evaluation });
    }
  }
  return finishes.map((finish) => outcomes.get(finish) ?? { written: false });
}

/** A finish's fields in the batch: the row's question, the job holding it, and what it writes. */
const FINISH_COLUMNS = {
  question_id: evaluation_results.question_id,
  job_id: evaluation_results.job_id,
  ...WRITE_COLUMNS,
} satisfies RecordColumns;

/**
 * One run's batch of finishes in one statement: `w` writes the rows this batch's jobs still hold,
 * `c` counts what was written, and the run's counters move by those counts (the last item of a
 * RUNNING run completes it). Its parameters: `evaluationId`, and `rows`, the finishes' JSON.
 */
const finishStatement = preparedPerDb((db) => {
  const r = evaluation_results;
  const i = (key: keyof typeof FINISH_COLUMNS) => recordField("i", key);
  const written = Object.fromEntries(
    Object.keys(WRITE_COLUMNS).map((key) => [key, i(key as keyof typeof WRITE_COLUMNS)]),
  );
  const w = db.$with("w").as(
    db
      .update(r)
      .set({ ...written, job_id: null, gmt_updated: sql`now()` })
      .from(recordset("i", FINISH_COLUMNS, sql.placeholder("rows")))
      .where(
        and(
          eq(r.evaluation_id, sql.placeholder("evaluationId")),
          eq(r.question_id, i("question_id")),
          eq(r.status, "RUNNING"),
          eq(r.job_id, i("job_id")),
        ),
      )
      .returning({
        question_id: r.question_id,
        job_id: sql<string>`${i("job_id")}`.as("job_id"),
        status: r.status,
        score: r.score,
      }),
  );
  const c = db.$with("c").as(
    db
      .select({
        done: sql<number>`count(*)::int`.as("done"),
        scored:
          sql<number>`(count(*) filter (where ${w.status} = 'SCORED' and ${w.score} is not null))::int`.as(
            "scored",
          ),
        score_sum:
          sql<number>`coalesce(sum(${w.score}) filter (where ${w.status} = 'SCORED'), 0)`.as(
            "score_sum",
          ),
        bot_errors: sql<number>`(count(*) filter (where ${w.status} = 'BOT_ERROR'))::int`.as(
          "bot_errors",
        ),
        judge_errors: sql<number>`(count(*) filter (where ${w.status} = 'JUDGE_ERROR'))::int`.as(
          "judge_errors",
        ),
        written: sql<string[] | null>`array_agg(${w.question_id} || ' ' || ${w.job_id})`.as(
          "written",
        ),
      })
      .from(w),
  );
  const e = evaluations;
  const completed = sql`${e.completed_questions} + ${c.done}`;
  const finishing = sql`${e.status} = 'RUNNING' and ${completed} >= ${e.total_questions}`;
  return prepareNamed(
    db
      .with(w, c)
      .update(e)
      .set({
        completed_questions: completed,
        scored_questions: sql`${e.scored_questions} + ${c.scored}`,
        bot_error_count: sql`${e.bot_error_count} + ${c.bot_errors}`,
        judge_error_count: sql`${e.judge_error_count} + ${c.judge_errors}`,
        average_score: sql`case when ${c.scored} > 0
        then (coalesce(${e.average_score}, 0) * ${e.scored_questions} + ${c.score_sum})
             / (${e.scored_questions} + ${c.scored})
        else ${e.average_score} end`,
        progress: sql`case when ${e.total_questions} = 0 then 100
        else floor(100.0 * (${completed}) / ${e.total_questions})::int end`,
        status: sql`case when ${finishing} then 'COMPLETED' else ${e.status} end`,
        finished_at: sql`case when ${finishing} then now() else ${e.finished_at} end`,
        gmt_updated: sql`now()`,
      })
      .from(c)
      .where(and(eq(e.id, sql.placeholder("evaluationId")), gt(c.done, 0)))
      .returning({
        status: e.status,
        completed_questions: e.completed_questions,
        total_questions: e.total_questions,
        scored_questions: e.scored_questions,
        bot_error_count: e.bot_error_count,
        judge_error_count: e.judge_error_count,
        written: c.written,
      }),
  );
});

/**
 * Recomputes the counters from the rows (after resume or retry reset some of them), and
 * completes a RUNNING run that has nothing left to do. The run's row is locked first and counted
 * in a later statement: a count taken before waiting for the lock would miss an item's final
 * write committed meanwhile, then overwrite that write's increment.
 */
export async function recountEvaluation(
  db: Db,
  evaluationId: string,
): Promise<EvaluationRow | undefined> {
  const id = idParam(evaluationId);
  return db.transaction(async (tx) => {
    await tx
      .select({ id: evaluations.id })
      .from(evaluations)
      .where(eq(evaluations.id, id))
      .for("update");
    const r = evaluation_results;
    const c = tx.$with("c").as(
      tx
        .select({
          total: sql<number>`count(*)::int`.as("total"),
          done: sql<number>`(count(*) filter (where ${inArray(r.status, [...FINAL_RESULT_STATUSES])}))::int`.as(
            "done",
          ),
          scored:
            sql<number>`(count(*) filter (where ${r.status} = 'SCORED' and ${r.score} is not null))::int`.as(
              "scored",
            ),
          bot_errors: sql<number>`(count(*) filter (where ${r.status} = 'BOT_ERROR'))::int`.as(
            "bot_errors",
          ),
          judge_errors: sql<number>`(count(*) filter (where ${r.status} = 'JUDGE_ERROR'))::int`.as(
            "judge_errors",
          ),
          average: sql<number | null>`avg(${r.score}) filter (where ${r.status} = 'SCORED')`.as(
            "average",
          ),
        })
        .from(r)
        .where(eq(r.evaluation_id, id)),
    );
    const e = evaluations;
    const finishing = sql`${e.status} = 'RUNNING' and ${c.done} >= ${c.total}`;
    const [row] = await tx
      .with(c)
      .update(e)
      .set({
        total_questions: sql`${c.total}`,
        completed_questions: sql`${c.done}`,
        scored_questions: sql`${c.scored}`,
        bot_error_count: sql`${c.bot_errors}`,
        judge_error_count: sql`${c.judge_errors}`,
        average_score: sql`${c.average}`,
        progress: sql`case when ${c.total} = 0 then 100 else floor(100.0 * ${c.done} / ${c.total})::int end`,
        status: sql`case when ${finishing} then 'COMPLETED' else ${e.status} end`,
        finished_at: sql`case when ${finishing} then now() else ${e.finished_at} end`,
        gmt_updated: sql`now()`,
      })
      .from(c)
      .where(eq(e.id, id))
      .returning(getTableColumns(e));
    return row;
  });
}

/** Puts rows back to PENDING, clearing their outputs; returns how many. */
export async function resetResults(
  db: Db,
  evaluationId: string,
  statuses: readonly ResultStatus[],
): Promise<number> {
  const rows = await db
    .update(evaluation_results)
    .set({
      status: "PENDING",
      job_id: null,
      latency_ms: null,
      ...NO_OUTPUTS,
      error: null,
      error_kind: null,
      gmt_updated: new Date(),
    })
    .where(
      and(
        eq(evaluation_results.evaluation_id, idParam(evaluationId)),
        inArray(evaluation_results.status, [...statuses]),
      ),
    )
    .returning({ id: evaluation_results.id });
  return rows.length;
}

/** Statuses of the given runs, for workers watching for pause and cancel. */
export async function evaluationStatuses(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, EvaluationStatus>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: evaluations.id, status: evaluations.status, deleted: evaluations.gmt_deleted })
    .from(evaluations)
    .where(inArray(evaluations.id, [...ids]));
  return new Map(
    rows.map((row) => [row.id, row.deleted ? ("CANCELLED" as const) : row.status] as const),
  );
}

/** PENDING runs nobody launched within `olderThanMs` (their launch job was lost in a crash). */
export async function strandedPendingEvaluations(db: Db, olderThanMs: number): Promise<string[]> {
  const rows = await db
    .select({ id: evaluations.id })
    .from(evaluations)
    .where(
      and(
        eq(evaluations.status, "PENDING"),
        isNull(evaluations.gmt_deleted),
        lt(evaluations.gmt_updated, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
      ),
    )
    .limit(100);
  return rows.map((row) => row.id);
}
