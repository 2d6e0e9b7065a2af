import {
  type Db,
  type EvaluationResultRow,
  type EvaluationRow,
  type EvaluationStatus,
  evaluationPassCounts,
  getEvaluation,
  getEvaluationResult,
  getQuestionSet,
  listCompareRows,
  listEvaluationResults,
  listEvaluationsOfQuestionSet,
  listSummaryRows,
  listEvaluations,
  QuestionSetNotFoundError,
  queryEvaluationResults,
  queryResultList,
  type ResultFilter,
  type ResultListRow,
  type ResultStatus,
} from "../../store/index.js";
import {
  type EvaluationSummary,
  EvaluationNotFoundError,
  type Progress,
  progressOf,
  summarizeResults,
} from "../runs/index.js";
import { chartsOf, type EvaluationCharts, type RadarDimension, radarOf } from "./charts.js";
import { type CompareCounts, type CompareItem, compareRows } from "./compare.js";
import { type Incomparability, incomparabilityOf } from "./comparability.js";

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
  /** Share of SCORED results that passed; null before the first. */
  pass_rate: number | null;
}

export interface EvaluationDetail extends Omit<EvaluationWithProgress, "pass_rate"> {
  summary: EvaluationSummary;
  /** The first page of the results list (light rows), in question order. */
  results: ResultListRow[];
}

/** The user's evaluation; a malformed, deleted or foreign id throws EvaluationNotFoundError. */
export async function mustGetEvaluation(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<EvaluationRow> {
  const row = await getEvaluation(db, workspaceId, id);
  if (!row) throw new EvaluationNotFoundError("evaluation", id);
  return row;
}

export async function listEvaluationsWithProgress(
  db: Db,
  workspaceId: string,
  page: { limit?: number; offset?: number; statuses?: EvaluationStatus[] } = {},
): Promise<EvaluationWithProgress[]> {
  const now = new Date();
  const rows = await listEvaluations(db, workspaceId, page);
  const passes = await evaluationPassCounts(
    db,
    workspaceId,
    rows.map((row) => row.id),
  );
  return rows.map((evaluation) => ({
    evaluation,
    progress: progressOf(evaluation, now),
    pass_rate: rateOf(passes.get(evaluation.id)),
  }));
}

function rateOf(counts: { scored: number; passed: number } | undefined): number | null {
  return counts && counts.scored > 0 ? counts.passed / counts.scored : null;
}

export async function evaluationDetail(
  db: Db,
  workspaceId: string,
  id: string,
  options: { resultsLimit?: number } = {},
): Promise<EvaluationDetail> {
  const evaluation = await mustGetEvaluation(db, workspaceId, id);
  const [summaryRows, results] = await Promise.all([
    listSummaryRows(db, workspaceId, evaluation.id),
    queryResultList(
      db,
      workspaceId,
      evaluation.id,
      {},
      {
        limit: options.resultsLimit ?? RESULTS_PAGE.default,
      },
    ),
  ]);
  return {
    evaluation,
    progress: progressOf(evaluation),
    summary: summarizeResults(summaryRows),
    // Deleted since the check above: its page answers none.
    results: results?.rows ?? [],
  };
}

export async function evaluationResultsPage(
  db: Db,
  workspaceId: string,
  id: string,
  query: { statuses?: ResultStatus[]; offset?: number; limit?: number } = {},
): Promise<EvaluationResultRow[]> {
  const evaluation = await mustGetEvaluation(db, workspaceId, id);
  return listEvaluationResults(db, workspaceId, evaluation.id, {
    ...(query.statuses ? { statuses: query.statuses } : {}),
    offset: query.offset ?? 0,
    limit: query.limit ?? RESULTS_PAGE.default,
  });
}

/**
 * A filtered page of the results list (the detail page's): light rows only, and how many match
 * in all. One result in full is `evaluationResult`.
 */
export async function resultsListPage(
  db: Db,
  workspaceId: string,
  id: string,
  filter: ResultFilter,
  page: { offset?: number; limit?: number } = {},
): Promise<{ rows: ResultListRow[]; total: number }> {
  // One statement checks the run, counts the matches and reads the page (each filter change).
  const list = await queryResultList(db, workspaceId, id, filter, {
    offset: page.offset ?? 0,
    limit: page.limit ?? RESULTS_PAGE.default,
  });
  if (!list) throw new EvaluationNotFoundError("evaluation", id);
  return list;
}

/** One result of the user's run in full; a malformed or foreign id throws EvaluationNotFoundError. */
export async function evaluationResult(
  db: Db,
  workspaceId: string,
  id: string,
  resultId: string,
): Promise<EvaluationResultRow> {
  const evaluation = await mustGetEvaluation(db, workspaceId, id);
  const row = await getEvaluationResult(db, workspaceId, evaluation.id, resultId);
  if (!row) throw new EvaluationNotFoundError("result", resultId);
  return row;
}

/** A filtered set of a run's results in full, and how many match in all (an export). */
export async function filteredResultsPage(
  db: Db,
  workspaceId: string,
  id: string,
  filter: ResultFilter,
  page: { offset?: number; limit?: number } = {},
): Promise<{ rows: EvaluationResultRow[]; total: number }> {
  const evaluation = await mustGetEvaluation(db, workspaceId, id);
  return queryEvaluationResults(db, workspaceId, evaluation.id, filter, page);
}

export async function evaluationCharts(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<EvaluationCharts> {
  const evaluation = await mustGetEvaluation(db, workspaceId, id);
  return chartsOf(await listSummaryRows(db, workspaceId, evaluation.id));
}

export interface ComparedRun {
  evaluation: EvaluationRow;
  summary: EvaluationSummary;
  radar: RadarDimension[];
}

export interface EvaluationComparison {
  base: ComparedRun;
  head: ComparedRun;
  matched_by: "question_id" | "question_text";
  /** Why the two runs' scores are not comparable; empty when they are. */
  incomparable: Incomparability[];
  counts: CompareCounts;
  items: CompareItem[];
}

/** Two of the user's runs side by side; either id unknown or foreign is not found. */
export async function compareEvaluations(
  db: Db,
  workspaceId: string,
  baseId: string,
  headId: string,
): Promise<EvaluationComparison> {
  const [base, head] = await Promise.all([
    mustGetEvaluation(db, workspaceId, baseId),
    mustGetEvaluation(db, workspaceId, headId),
  ]);
  const sameSet = base.question_set_id !== null && base.question_set_id === head.question_set_id;
  const matchedBy = sameSet ? "question_id" : "question_text";
  const [baseRows, headRows, baseSummary, headSummary] = await Promise.all([
    listCompareRows(db, workspaceId, base.id),
    listCompareRows(db, workspaceId, head.id),
    listSummaryRows(db, workspaceId, base.id).then(summarizeResults),
    listSummaryRows(db, workspaceId, head.id).then(summarizeResults),
  ]);
  const { items, counts } = compareRows(baseRows, headRows, matchedBy);
  return {
    base: { evaluation: base, summary: baseSummary, radar: radarOf(baseSummary) },
    head: { evaluation: head, summary: headSummary, radar: radarOf(headSummary) },
    matched_by: matchedBy,
    incomparable: incomparabilityOf(base, head),
    counts,
    items,
  };
}

export interface TrendPoint {
  evaluation: EvaluationRow;
  pass_rate: number | null;
  scored: number;
}

/** Every live run made on a question set, oldest first, with its score and pass rate. */
export async function questionSetTrend(
  db: Db,
  workspaceId: string,
  questionSetId: string,
): Promise<TrendPoint[]> {
  const set = await getQuestionSet(db, workspaceId, questionSetId);
  if (!set) throw new QuestionSetNotFoundError(questionSetId);
  const runs = await listEvaluationsOfQuestionSet(db, workspaceId, set.id);
  const passes = await evaluationPassCounts(
    db,
    workspaceId,
    runs.map((run) => run.id),
  );
  return runs.map((evaluation) => ({
    evaluation,
    pass_rate: rateOf(passes.get(evaluation.id)),
    scored: passes.get(evaluation.id)?.scored ?? 0,
  }));
}
