// The calibration of one judge of one run against its human labels, read from the store.

import { DEFAULT_GATE_CONFIG, isAbstention } from "../../gate/index.js";
import type { CodedMessage } from "../../text/index.js";
import type { RubricFewshot } from "../../judges/index.js";
import {
  calibrationDetails,
  calibrationRows,
  type Db,
  getAnswerRecord,
  getEvaluationResult,
  getMonitor,
  type LabelScale,
  labelCounts,
  monitorCalibrationRows,
  reviewerLabelsOfRun,
} from "../../store/index.js";
import { CalibrationNotFoundError, CalibrationRequestError } from "./errors.js";
import { type FewshotRole, pickFewshot } from "./fewshot.js";
import { ownEvaluation } from "./labels.js";
import {
  buildCalibrationReport,
  type CalibrationOptions,
  type CalibrationReport,
  type ReviewerLabel,
  reviewerFigures,
} from "./report.js";
import { chooseJudge, runJudges } from "./run-judges.js";
import { passThreshold, SCALE_RANGES, scaleOfJudge } from "./scales.js";

export interface CalibrateRequest extends Partial<CalibrationOptions> {
  judge?: string;
}

export async function calibrateEvaluation(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  request: CalibrateRequest = {},
): Promise<CalibrationReport> {
  const evaluation = await ownEvaluation(db, workspaceId, evaluationId);
  const { judges, config } = runJudges(evaluation);
  const judge = chooseJudge(
    judges,
    await labelCounts(db, workspaceId, evaluation.id),
    request.judge,
  );
  const scale = scaleOfJudge(judge);
  const rows = await calibrationRows(db, workspaceId, evaluation.id, judge, scale ?? "1-10");
  const { judge: _judge, ...options } = request;
  const report = buildCalibrationReport({
    evaluation: { id: evaluation.id, name: evaluation.name },
    judge,
    scale,
    passThreshold: scale === null ? null : passThreshold(scale, config),
    rows,
    options,
  });
  // The rows were read without questions and answers; the listed disagreements get theirs.
  const details = await calibrationDetails(
    db,
    workspaceId,
    evaluation.id,
    report.disagreements.map((d) => d.result_id),
  );
  for (const disagreement of report.disagreements) {
    const detail = details.get(disagreement.result_id);
    disagreement.question = detail?.question_text ?? disagreement.question;
    disagreement.answer = detail?.answer ?? null;
    disagreement.note = detail?.note ?? null;
  }
  report.reviewers = reviewerFigures({
    rows,
    labels: await queueReviewerLabels(db, workspaceId, evaluation.id, scale),
    scale,
    tolerance: report.options.tolerance,
  });
  return report;
}

/**
 * Reviewers' labels of the run's results in annotation queues: on each queue, the first criterion
 * on the report's scale gives the score and the first pass/fail criterion the pass.
 */
async function queueReviewerLabels(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  scale: Exclude<LabelScale, "pass_fail"> | null,
): Promise<ReviewerLabel[]> {
  const rows = await reviewerLabelsOfRun(db, workspaceId, evaluationId);
  const merged = new Map<string, ReviewerLabel>();
  for (const row of rows) {
    const criteria = ((row.rubric as { criteria?: { name: string; scale: string }[] }).criteria ??
      []) as { name: string; scale: string }[];
    const firstOn = (wanted: string) => criteria.find((c) => c.scale === wanted)?.name;
    const key = `${row.reviewer_id}\n${row.result_id}`;
    const label = merged.get(key) ?? {
      reviewer: row.reviewer_name,
      result_id: row.result_id,
      score: null,
      passed: null,
    };
    if (scale !== null && row.criterion === firstOn(scale) && row.score !== null) {
      label.score = row.score;
    }
    if (row.criterion === firstOn("pass_fail") && row.passed !== null) label.passed = row.passed;
    merged.set(key, label);
  }
  return [...merged.values()];
}

/**
 * A monitor's judge against people's thumbs on the same live answers (issue 24 §2): a thumbs up
 * is a pass, a thumbs down a fail; the judge's verdict is compared with them, pass/fail only.
 */
export async function calibrateMonitor(
  db: Db,
  workspaceId: string,
  monitorId: string,
  request: CalibrateRequest = {},
): Promise<CalibrationReport> {
  const monitor = await getMonitor(db, workspaceId, monitorId);
  if (!monitor) throw new CalibrationNotFoundError("monitor", monitorId);
  const judges = monitor.judges;
  const judge = request.judge ?? judges[0] ?? "offline";
  if (!judges.includes(judge)) {
    throw new CalibrationRequestError(
      "judge",
      `the monitor runs ${judges.join(", ")}, not ${judge}`,
    );
  }
  const rows = await monitorCalibrationRows(db, workspaceId, monitor.id, judge);
  const { judge: _judge, ...options } = request;
  const report = buildCalibrationReport({
    evaluation: { id: monitor.id, name: monitor.name },
    judge,
    scale: null,
    passThreshold: null,
    rows,
    options,
  });
  for (const disagreement of report.disagreements) {
    const answer = await getAnswerRecord(db, workspaceId, disagreement.result_id);
    if (!answer) continue;
    disagreement.question = answer.query ?? disagreement.question;
    disagreement.answer = answer.answer;
  }
  return report;
}

/** Characters of context kept per example, so a few examples do not crowd out the answer. */
const CONTEXT_CHARS = 1_500;

/**
 * `calibrate --suggest-fewshot`: picks person-scored results of a run (see fewshot.ts) and returns
 * them as `judges.rubric.fewshot` entries, with the sources the bot answered from as context.
 */
export async function suggestFewshot(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  options: { count?: number; judge?: string } = {},
): Promise<{
  examples: (RubricFewshot & { result_id: string; role: FewshotRole })[];
  warnings: CodedMessage[];
}> {
  const evaluation = await ownEvaluation(db, workspaceId, evaluationId);
  const { judges } = runJudges(evaluation);
  // The examples go to the rubric prompt, so people's scores must be on its 1-10 scale; any judge
  // of that scale (rubric, offline) shows how far its score was from theirs.
  const judge =
    options.judge ?? judges.find((name) => scaleOfJudge(name) === "1-10") ?? judges[0] ?? "rubric";
  if (scaleOfJudge(judge) !== "1-10") {
    throw new CalibrationRequestError(
      "judge",
      `few-shot examples need human scores on the rubric's 1-10 scale; ${judge} is not on it`,
    );
  }
  const rows = await calibrationRows(db, workspaceId, evaluation.id, judge, "1-10", {
    details: true,
  });
  const patterns = DEFAULT_GATE_CONFIG.checks.honest_abstention.abstention_patterns;
  const { picks, warnings } = pickFewshot(rows, {
    scale: SCALE_RANGES["1-10"],
    count: options.count ?? 3,
    abstains: (answer) => isAbstention(answer, patterns),
  });
  const examples = [];
  for (const { row, role } of picks) {
    const full = await getEvaluationResult(db, workspaceId, evaluation.id, row.result_id);
    const sources = Array.isArray(full?.rag_answer_sources) ? full.rag_answer_sources : [];
    const context = sources
      .slice(0, 5)
      .map((source) => {
        // A bot's source as stored: {node_id, content, ...}; anything else shows empty.
        const { node_id, content } = (source ?? {}) as { node_id?: unknown; content?: unknown };
        const text = typeof content === "string" ? content : "";
        return `[${String(node_id ?? "")}] ${text.slice(0, CONTEXT_CHARS)}`;
      })
      .join("\n")
      .slice(0, 8_000);
    examples.push({
      result_id: row.result_id,
      role,
      question: row.question_text.slice(0, 4_000),
      context,
      answer: (full?.rag_answer ?? row.answer ?? "").slice(0, 8_000),
      score: row.human_score as number,
      note: (row.note ?? "").slice(0, 2_000),
    });
  }
  return { examples, warnings };
}
