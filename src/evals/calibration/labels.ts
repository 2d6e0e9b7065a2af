// Human labels of a run's results: import from a file, and one at a time for the labelling view
// (the API). Every read is scoped to the caller: another user's evaluation or result is not found.

import {
  type Db,
  deleteHumanLabel,
  type EvaluationRow,
  getEvaluation,
  getEvaluationResult,
  type HumanLabelRow,
  type LabelScale,
  labelNeighbours,
  labelTargets,
  listHumanLabels,
  listResultLabels,
  nextUnlabelledResult,
  upsertHumanLabels,
} from "../../store/index.js";
import { CalibrationNotFoundError, CalibrationRequestError, LabelImportError } from "./errors.js";
import type { JudgeName, JudgeResult } from "../../judges/index.js";
import type { BotSource } from "../bots/index.js";
import { readLabelFile } from "./label-file.js";
import { runJudges, scoreScaleOf } from "./run-judges.js";
import { type LabelInput, labelIssue, scaleOfJudge } from "./scales.js";

/** The caller: labels go to their workspace, labelled by their name unless a line says who. */
export interface Labeller {
  workspaceId: string;
  userId: string;
  name: string;
}

export async function ownEvaluation(
  db: Db,
  workspaceId: string,
  evaluationId: string,
): Promise<EvaluationRow> {
  const evaluation = await getEvaluation(db, workspaceId, evaluationId);
  if (!evaluation) throw new CalibrationNotFoundError("evaluation", evaluationId);
  return evaluation;
}

/**
 * Imports a label file (see label-file.ts) into one of the user's runs: every line valid and
 * matched, then one statement writes them all; any bad line and nothing is written
 * (LabelImportError lists them all). human_score is on `scale`, else the judge's, else the scale of
 * the run's first judge that has one.
 */
export async function importLabels(
  db: Db,
  user: Labeller,
  evaluationId: string,
  source: AsyncIterable<Uint8Array | string>,
  options: { judge?: string; scale?: Exclude<LabelScale, "pass_fail"> } = {},
): Promise<{ lines: number; written: number; scale: LabelScale | null }> {
  const evaluation = await ownEvaluation(db, user.workspaceId, evaluationId);
  const scale = scoreScaleOf(runJudges(evaluation).judges, options);
  const targets = await labelTargets(db, user.workspaceId, evaluation.id);
  const { labels, issues, lines } = await readLabelFile(source, targets, {
    scale,
    labelledBy: user.name,
  });
  if (issues.length > 0) throw new LabelImportError(issues);
  if (lines === 0) throw new LabelImportError([{ line: 0, field: "(file)", message: "no lines" }]);
  const written = await upsertHumanLabels(db, user.workspaceId, evaluation.id, labels);
  return { lines, written: written.length, scale };
}

/** Sets (or replaces) the label of one result on one scale. */
export async function putLabel(
  db: Db,
  user: Labeller,
  evaluationId: string,
  resultId: string,
  scale: LabelScale,
  input: LabelInput,
): Promise<HumanLabelRow> {
  await ownResult(db, user.workspaceId, evaluationId, resultId);
  const issue = labelIssue(scale, input);
  if (issue) throw new CalibrationRequestError(issue.field, issue.message);
  const [row] = await upsertHumanLabels(db, user.workspaceId, evaluationId, [
    {
      evaluation_result_id: resultId,
      scale,
      score: input.score ?? null,
      passed: input.passed ?? null,
      note: input.note ?? null,
      labelled_by: input.labelled_by ?? user.name,
    },
  ]);
  if (!row) throw new CalibrationNotFoundError("result", resultId);
  return row;
}

export async function resultLabels(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  resultId: string,
): Promise<HumanLabelRow[]> {
  await ownResult(db, workspaceId, evaluationId, resultId);
  return listResultLabels(db, workspaceId, evaluationId, resultId);
}

export async function removeLabel(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  resultId: string,
  scale: LabelScale,
): Promise<void> {
  await ownResult(db, workspaceId, evaluationId, resultId);
  if (!(await deleteHumanLabel(db, workspaceId, evaluationId, resultId, scale))) {
    throw new CalibrationNotFoundError("label", `${resultId}/${scale}`);
  }
}

export async function runLabels(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  scale?: LabelScale,
) {
  await ownEvaluation(db, workspaceId, evaluationId);
  return listHumanLabels(db, workspaceId, evaluationId, scale);
}

/** The run as the labelling view names it: no verdict, no configuration beyond its judges. */
function runOf(evaluation: EvaluationRow) {
  return { id: evaluation.id, name: evaluation.name, judges: runJudges(evaluation).judges };
}

/** The scales a run's results can be labelled on: its judges' score scales, then pass/fail. */
export function runScales(evaluation: Pick<EvaluationRow, "config">): LabelScale[] {
  const scales = new Set<LabelScale>();
  for (const judge of runJudges(evaluation).judges) {
    const scale = scaleOfJudge(judge);
    if (scale) scales.add(scale);
  }
  return [...scales, "pass_fail"];
}

type ResultRow = NonNullable<Awaited<ReturnType<typeof getEvaluationResult>>>;

/** What a person needs to score a result, and nothing the judges said (it would anchor them). */
function blindResult(row: ResultRow) {
  return {
    id: row.id,
    position: row.position,
    question_id: row.question_id,
    question: row.question_text,
    question_type: row.question_type,
    ground_truth: row.ground_truth,
    ground_truths: row.ground_truths ?? null,
    status: row.status,
    answer: row.rag_answer,
    citations: row.rag_citations,
    // Stored by the run from the bot's answer (evals/bots/types.ts BotAnswer.sources).
    sources: row.rag_answer_sources as BotSource[] | null,
  };
}

/**
 * The labelling view's next item: the first judged result after `after` (a position) with no
 * label on `scale` (default the run's first judge's score scale, else pass/fail), with what a
 * person needs to score it (question, reference, answer, sources) and without the judges'
 * verdicts, so they cannot anchor the person.
 */
export async function nextToLabel(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  scale?: LabelScale,
  after?: number,
) {
  const evaluation = await ownEvaluation(db, workspaceId, evaluationId);
  const scales = runScales(evaluation);
  const on = scale ?? (scales[0] as LabelScale);
  const next = await nextUnlabelledResult(db, workspaceId, evaluation.id, on, after);
  const row = next.resultId
    ? await getEvaluationResult(db, workspaceId, evaluation.id, next.resultId)
    : undefined;
  return {
    evaluation: runOf(evaluation),
    scale: on,
    scales,
    labelled: next.labelled,
    unlabelled: next.unlabelled,
    result: row ? blindResult(row) : null,
  };
}

/**
 * One result in the labelling view: the blind result, its neighbours among the SCORED results,
 * the person's label on `scale`, and the judges' verdicts only once that label exists. The
 * server holds them back, so the page cannot show (or leak) them before the person has scored.
 */
export async function labelItem(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  resultId: string,
  scale?: LabelScale,
) {
  const evaluation = await ownEvaluation(db, workspaceId, evaluationId);
  const scales = runScales(evaluation);
  const on = scale ?? (scales[0] as LabelScale);
  const row = await ownResult(db, workspaceId, evaluation.id, resultId);
  const [around, labels] = await Promise.all([
    labelNeighbours(db, workspaceId, evaluation.id, row.position, on),
    listResultLabels(db, workspaceId, evaluation.id, row.id),
  ]);
  const label = labels.find((l) => l.scale === on) ?? null;
  // Stored by the run as each judge's result (judges/result.ts), a verdict being an object.
  const stored = (row.judges ?? {}) as Record<
    string,
    JudgeResult<JudgeName, Record<string, unknown>>
  >;
  const judges = Object.entries(stored).map(([name, result]) => ({
    name,
    scale: scaleOfJudge(name),
    result,
  }));
  return {
    evaluation: runOf(evaluation),
    scale: on,
    scales,
    labelled: around.labelled,
    unlabelled: around.total - around.labelled,
    index: around.index,
    total: around.total,
    previous_id: around.previousId,
    next_id: around.nextId,
    result: blindResult(row),
    label,
    judges: label ? judges : null,
  };
}

async function ownResult(db: Db, workspaceId: string, evaluationId: string, resultId: string) {
  await ownEvaluation(db, workspaceId, evaluationId);
  const row = await getEvaluationResult(db, workspaceId, evaluationId, resultId);
  if (!row) throw new CalibrationNotFoundError("result", resultId);
  return row;
}
