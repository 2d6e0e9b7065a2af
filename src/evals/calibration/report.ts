import type { CalibrationRow, LabelScale } from "../../store/index.js";
import { type CodedMessage, codedMessage } from "../../text/index.js";
import {
  constantBaseline,
  DEFAULT_GOLDEN_SET,
  type GoldenSetOptions,
  type GoldenSetVerdict,
  goldenSetVerdict,
  type PassFailFigures,
  passFailBaseline,
  passFailFigures,
  type ScoreFigures,
  scoreFigures,
} from "./golden-set.js";
import { type Interval, ppiMean, wilsonInterval } from "./ppi.js";
import { SCALE_RANGES } from "./scales.js";

export interface Disagreement {
  result_id: string;
  position: number;
  question: string;
  answer: string | null;
  judge_score: number | null;
  human_score: number | null;
  /** judge − human on the score scale; null when only pass/fail differ. */
  difference: number | null;
  judge_passed: boolean | null;
  human_passed: boolean | null;
  note: string | null;
}

export interface CalibrationReport {
  evaluation: { id: string; name: string };
  judge: string;
  /** The scale the human scores are on; null for a judge with only pass/fail (review). */
  scale: Exclude<LabelScale, "pass_fail"> | null;
  items: {
    /** Results the judge scored (judge errors excluded). */
    judged: number;
    /** Judged results with a human score / a human pass (given or read from the score). */
    labelled_scores: number;
    labelled_pass: number;
    /** Human labels on results whose judge errored: not counted anywhere. */
    skipped_judge_errors: number;
  };
  agreement: ScoreFigures | null;
  baseline: (ScoreFigures & { constant: number }) | null;
  pass_fail:
    | (PassFailFigures & {
        /** Where the human pass came from: pass/fail labels, or scores ≥ the pass threshold. */
        human_pass_source: { labels: number; scores: number; threshold: number | null };
        baseline: (PassFailFigures & { constant: boolean }) | null;
      })
    | null;
  pass_rate: {
    /** The judge's pass rate over every judged result, Wilson 95% interval. */
    judge: (Interval & { n: number; method: "wilson" }) | null;
    /** People's pass rate over the labelled results only, Wilson 95% interval. */
    human: (Interval & { n: number; method: "wilson" }) | null;
    /** PPI++: people's labels corrected by the judge on the unlabelled rest; CLT 95% interval. */
    ppi: (Interval & { n: number; N: number; lambda: number; method: "ppi++ clt" }) | null;
  };
  options: GoldenSetOptions;
  verdict: GoldenSetVerdict;
  disagreements: Disagreement[];
  /**
   * The judge against each reviewer of the run's annotation queues (issue 28 §2), beside the
   * figures above (against the run's human labels, adjudicated ones among them): whether the judge
   * is within the spread of people.
   */
  reviewers: ReviewerFigures[];
  /** What limits the figures, as codes the surfaces word (text/user-messages.ts). */
  warnings: CodedMessage[];
}

export interface ReviewerFigures {
  reviewer: string;
  scores: ScoreFigures | null;
  pass_fail: PassFailFigures | null;
}

/** One reviewer's label of one result: a score on the report's scale, or a pass. */
export interface ReviewerLabel {
  reviewer: string;
  result_id: string;
  score: number | null;
  passed: boolean | null;
}

/**
 * The judge against each reviewer on the results both judged (judge errors left out), reviewers
 * by name. Pure.
 */
export function reviewerFigures(input: {
  rows: readonly CalibrationRow[];
  labels: readonly ReviewerLabel[];
  scale: Exclude<LabelScale, "pass_fail"> | null;
  tolerance: number;
}): ReviewerFigures[] {
  const judged = new Map<string, CalibrationRow>();
  for (const row of input.rows) {
    if (row.outcome === "ok" && row.raw_score !== null && Number.isFinite(row.raw_score)) {
      judged.set(row.result_id, row);
    }
  }
  const range = input.scale === null ? null : SCALE_RANGES[input.scale];
  const byReviewer = new Map<string, ReviewerLabel[]>();
  for (const label of input.labels) {
    byReviewer.set(label.reviewer, [...(byReviewer.get(label.reviewer) ?? []), label]);
  }
  return [...byReviewer.keys()].sort().map((reviewer) => {
    const judge: number[] = [];
    const human: number[] = [];
    const judgePass: boolean[] = [];
    const humanPass: boolean[] = [];
    for (const label of byReviewer.get(reviewer) ?? []) {
      const row = judged.get(label.result_id);
      if (!row) continue;
      if (label.score !== null && range) {
        judge.push(row.raw_score as number);
        human.push(label.score);
      }
      if (label.passed !== null && row.judge_passed !== null) {
        judgePass.push(row.judge_passed);
        humanPass.push(label.passed);
      }
    }
    return {
      reviewer,
      scores: range && judge.length > 0 ? scoreFigures(judge, human, range, input.tolerance) : null,
      pass_fail: judgePass.length > 0 ? passFailFigures(judgePass, humanPass) : null,
    };
  });
}

export interface CalibrationOptions extends GoldenSetOptions {
  /** How many disagreements to list (default 10). */
  disagreements: number;
}

const clip = ([low, high]: [number, number]): [number, number] => [
  Math.max(0, low),
  Math.min(1, high),
];

interface Candidate {
  row: CalibrationRow;
  difference: number | null;
  humanScore: number | null;
  humanPass: boolean | null;
  passDiffers: boolean;
}

/** Disagreement order: the larger score gap first, then a pass/fail disagreement, then question order. */
function before(a: Candidate, b: Candidate): boolean {
  const gap = Math.abs(a.difference ?? 0) - Math.abs(b.difference ?? 0);
  if (gap !== 0) return gap > 0;
  if (a.passDiffers !== b.passDiffers) return a.passDiffers;
  return a.row.position < b.row.position;
}

/** Below this many labels the intervals are wide and the verdict can flip with a few more. */
export const FEW_LABELS = 30;

/** Compares a judge with people on one run's rows (see store calibrationRows). Pure. */
export function buildCalibrationReport(input: {
  evaluation: { id: string; name: string };
  judge: string;
  scale: Exclude<LabelScale, "pass_fail"> | null;
  /** A human score at or above this is a pass when no pass/fail label was given. */
  passThreshold: number | null;
  rows: readonly CalibrationRow[];
  options?: Partial<CalibrationOptions>;
}): CalibrationReport {
  const options = { ...DEFAULT_GOLDEN_SET, disagreements: 10, ...input.options };
  const { rows, scale, passThreshold } = input;
  const judgeScores: number[] = [];
  const humanScores: number[] = [];
  const labelledPassJudge: boolean[] = [];
  const labelledPassHuman: boolean[] = [];
  const unlabelledPass: number[] = [];
  const top: Candidate[] = [];
  let judged = 0;
  let judgePasses = 0;
  let judgeVerdicts = 0;
  let skipped = 0;
  let fromLabels = 0;
  let fromScores = 0;
  for (const row of rows) {
    const ok =
      row.outcome === "ok" &&
      row.defaulted !== true &&
      row.raw_score !== null &&
      Number.isFinite(row.raw_score);
    const humanScore = scale === null ? null : row.human_score;
    if (!ok) {
      if (humanScore !== null || row.human_passed !== null) skipped++;
      continue;
    }
    judged++;
    const raw = row.raw_score as number;
    if (humanScore !== null) {
      judgeScores.push(raw);
      humanScores.push(humanScore);
    }
    let humanPass = row.human_passed;
    if (humanPass !== null) fromLabels++;
    else if (humanScore !== null && passThreshold !== null) {
      humanPass = humanScore >= passThreshold;
      fromScores++;
    }
    if (row.judge_passed !== null) {
      judgeVerdicts++;
      if (row.judge_passed) judgePasses++;
      if (humanPass !== null) {
        labelledPassJudge.push(row.judge_passed);
        labelledPassHuman.push(humanPass);
      } else unlabelledPass.push(row.judge_passed ? 1 : 0);
    }
    const difference = humanScore === null ? null : raw - humanScore;
    const passDiffers =
      humanPass !== null && row.judge_passed !== null && humanPass !== row.judge_passed;
    if ((difference !== null && difference !== 0) || passDiffers) {
      // Only the largest few become report rows: a bounded, ordered list, not a sort of all.
      const candidate = { row, difference, humanScore, humanPass, passDiffers };
      if (top.length < options.disagreements || before(candidate, top.at(-1) as Candidate)) {
        let at = top.length;
        while (at > 0 && before(candidate, top[at - 1] as Candidate)) at--;
        top.splice(at, 0, candidate);
        if (top.length > options.disagreements) top.pop();
      }
    }
  }

  const range = scale === null ? null : SCALE_RANGES[scale];
  const agreement =
    range && judgeScores.length > 0
      ? scoreFigures(judgeScores, humanScores, range, options.tolerance)
      : null;
  const baseline = range ? constantBaseline(humanScores, range, options.tolerance) : null;
  const passFail =
    labelledPassJudge.length > 0 ? passFailFigures(labelledPassJudge, labelledPassHuman) : null;
  const passBaseline = passFailBaseline(labelledPassHuman);

  const humanPasses = labelledPassHuman.filter(Boolean).length;
  const judgeRate = wilsonInterval(judgePasses, judgeVerdicts);
  const humanRate = wilsonInterval(humanPasses, labelledPassHuman.length);
  const ppi = ppiMean({
    y: labelledPassHuman.map(Number),
    yhat: labelledPassJudge.map(Number),
    yhatUnlabelled: unlabelledPass,
  });

  const warnings: CodedMessage[] = [];
  const n = Math.max(judgeScores.length, labelledPassHuman.length);
  if (n > 0 && n < FEW_LABELS) {
    warnings.push(codedMessage("calibration.few_labels", { n, min: FEW_LABELS }));
  }
  if (skipped > 0) {
    warnings.push(
      codedMessage("calibration.skipped_judge_errors", { n: skipped, judge: input.judge }),
    );
  }
  if (ppi === null && labelledPassHuman.length > 0) {
    warnings.push(codedMessage("calibration.no_ppi"));
  }

  return {
    evaluation: input.evaluation,
    judge: input.judge,
    scale,
    items: {
      judged,
      labelled_scores: judgeScores.length,
      labelled_pass: labelledPassHuman.length,
      skipped_judge_errors: skipped,
    },
    agreement,
    baseline,
    pass_fail: passFail
      ? {
          ...passFail,
          human_pass_source: { labels: fromLabels, scores: fromScores, threshold: passThreshold },
          baseline: passBaseline,
        }
      : null,
    pass_rate: {
      judge: judgeRate && { ...judgeRate, n: judgeVerdicts, method: "wilson" },
      human: humanRate && { ...humanRate, n: labelledPassHuman.length, method: "wilson" },
      ppi: ppi && {
        estimate: ppi.estimate,
        ci: clip(ppi.ci),
        n: ppi.n,
        N: ppi.N,
        lambda: ppi.lambda,
        method: "ppi++ clt",
      },
    },
    options: {
      target: options.target,
      kappaMin: options.kappaMin,
      tolerance: options.tolerance,
    },
    verdict: goldenSetVerdict(
      { scores: agreement, baseline, passFail, passFailBaseline: passBaseline },
      options,
    ),
    disagreements: top.map(({ row, difference, humanScore, humanPass }) => ({
      result_id: row.result_id,
      position: row.position,
      question: row.question_text,
      answer: row.answer,
      judge_score: row.raw_score,
      human_score: humanScore,
      difference,
      judge_passed: row.judge_passed,
      human_passed: humanPass,
      note: row.note ?? row.pass_note,
    })),
    reviewers: [],
    warnings,
  };
}
