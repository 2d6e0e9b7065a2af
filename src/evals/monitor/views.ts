import {
  type Db,
  type EvaluationResultRow,
  type EvaluationRow,
  getEvaluation,
  isUuid,
  listEvaluationResults,
  listSummaryRows,
  listEvaluations,
  type ResultStatus,
} from "../../store/index.js";
import {
  type EvaluationSummary,
  EvaluationNotFoundError,
  type Progress,
  progressOf,
  summarizeResults,
} from "../runs/index.js";

// What the evaluation pages read (seed 003 flow 4): runs with their progress, one run's summary,
// and pages of its results.

export const RESULT_STATUSES: readonly ResultStatus[] = [
  "PENDING",
  "RUNNING",
  "SCORED",
  "BOT_ERROR",
  "JUDGE_ERROR",
];

export const RESULTS_PAGE = { default: 50, max: 500 } as const;

export interface EvaluationWithProgress {
  evaluation: EvaluationRow;
  progress: Progress;
}

export interface EvaluationDetail extends EvaluationWithProgress {
  summary: EvaluationSummary;
  /** The first page of results, in question order. */
  results: EvaluationResultRow[];
}

/** The user's evaluation; a malformed, deleted or foreign id throws EvaluationNotFoundError. */
export async function mustGetEvaluation(
  db: Db,
  userId: string,
  id: string,
): Promise<EvaluationRow> {
  const row = isUuid(id) ? await getEvaluation(db, userId, id) : undefined;
  if (!row) throw new EvaluationNotFoundError("evaluation", id);
  return row;
}

export async function listEvaluationsWithProgress(
  db: Db,
  userId: string,
  page: { limit?: number; offset?: number } = {},
): Promise<EvaluationWithProgress[]> {
  const now = new Date();
  const rows = await listEvaluations(db, userId, page);
  return rows.map((evaluation) => ({ evaluation, progress: progressOf(evaluation, now) }));
}

export async function evaluationDetail(
  db: Db,
  userId: string,
  id: string,
  options: { resultsLimit?: number } = {},
): Promise<EvaluationDetail> {
  const evaluation = await mustGetEvaluation(db, userId, id);
  const [summaryRows, results] = await Promise.all([
    listSummaryRows(db, userId, evaluation.id),
    listEvaluationResults(db, userId, evaluation.id, {
      limit: options.resultsLimit ?? RESULTS_PAGE.default,
    }),
  ]);
  return {
    evaluation,
    progress: progressOf(evaluation),
    summary: summarizeResults(summaryRows),
    results,
  };
}

export async function evaluationResultsPage(
  db: Db,
  userId: string,
  id: string,
  query: { statuses?: ResultStatus[]; offset?: number; limit?: number } = {},
): Promise<EvaluationResultRow[]> {
  const evaluation = await mustGetEvaluation(db, userId, id);
  return listEvaluationResults(db, userId, evaluation.id, {
    ...(query.statuses ? { statuses: query.statuses } : {}),
    offset: query.offset ?? 0,
    limit: query.limit ?? RESULTS_PAGE.default,
  });
}
