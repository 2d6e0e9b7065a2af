import type { MessageLanguage } from "../../text/index.js";
import { questionKey } from "../questions/index.js";
import type { EvaluationReport, ReportResult } from "./report.js";
import { reportWord } from "./report-words.js";

export const DEFAULT_BASELINE_TOLERANCE = 0.05;

/** Where one question stood in a run. */
export interface QuestionStanding {
  position: number;
  status: string;
  score: number | null;
  passed: boolean | null;
}

export interface QuestionChange {
  question: string;
  baseline: QuestionStanding;
  current: QuestionStanding;
  /** e.g. "passed -> not passed", "score 0.812 -> 0.640", in the comparison's language. */
  reason: string;
}

export interface BaselineComparison {
  baseline_id: string;
  tolerance: number;
  /** Questions found in both runs (by normalized question text). */
  matched: number;
  only_in_current: number;
  only_in_baseline: number;
  regressions: QuestionChange[];
  improvements: QuestionChange[];
  average_score: { baseline: number | null; current: number | null };
  pass_rate: { baseline: number | null; current: number | null };
}

const standingOf = (r: ReportResult): QuestionStanding => ({
  position: r.position,
  status: r.status,
  score: r.score,
  passed: r.passed,
});

const passLabel = (r: ReportResult, lang: MessageLanguage) =>
  r.status === "SCORED" ? reportWord(lang, r.passed ? "passedState" : "notPassedState") : r.status;

const isError = (r: ReportResult) => r.status === "BOT_ERROR" || r.status === "JUDGE_ERROR";

function change(
  question: string,
  baseline: ReportResult,
  current: ReportResult,
  reason: string,
): QuestionChange {
  return { question, baseline: standingOf(baseline), current: standingOf(current), reason };
}

/** How the question moved: a regression, an improvement, or neither (undefined). */
function classify(
  baseline: ReportResult,
  current: ReportResult,
  tolerance: number,
  lang: MessageLanguage,
): { kind: "regression" | "improvement"; reason: string } | undefined {
  const moved = `${passLabel(baseline, lang)} -> ${passLabel(current, lang)}`;
  if (baseline.passed === true && current.passed !== true)
    return { kind: "regression", reason: moved };
  if (baseline.status === "SCORED" && isError(current))
    return { kind: "regression", reason: moved };
  if (baseline.passed !== true && current.passed === true)
    return { kind: "improvement", reason: moved };
  if (baseline.score !== null && current.score !== null) {
    const delta = current.score - baseline.score;
    const reason = reportWord(lang, "scoreChange", {
      from: baseline.score.toFixed(3),
      to: current.score.toFixed(3),
    });
    // A hair's margin, so a drop of exactly the tolerance is not one by float error.
    if (delta < -tolerance - 1e-9) return { kind: "regression", reason };
    if (delta > tolerance + 1e-9) return { kind: "improvement", reason };
  }
  return undefined;
}

function byKey(results: readonly ReportResult[]): Map<string, ReportResult> {
  const map = new Map<string, ReportResult>();
  for (const result of results) {
    const key = questionKey(result.question);
    if (!map.has(key)) map.set(key, result);
  }
  return map;
}

/**
 * Compares a run to a baseline run question by question. Questions are matched by their normalized
 * text (question ids differ between question sets). A regression is a question that passed and no
 * longer does (or errors now), or whose score dropped by more than `tolerance`; an improvement the
 * reverse. Each change's reason is worded in `lang` (`--lang zh`).
 */
export function compareToBaseline(
  current: EvaluationReport,
  baseline: EvaluationReport,
  options: { tolerance?: number; lang?: MessageLanguage } = {},
): BaselineComparison {
  const tolerance = options.tolerance ?? DEFAULT_BASELINE_TOLERANCE;
  const lang = options.lang ?? "en";
  const before = byKey(baseline.results);
  const after = byKey(current.results);
  const regressions: QuestionChange[] = [];
  const improvements: QuestionChange[] = [];
  let matched = 0;
  for (const [key, now] of after) {
    const then = before.get(key);
    if (!then) continue;
    matched++;
    const verdict = classify(then, now, tolerance, lang);
    if (verdict?.kind === "regression")
      regressions.push(change(now.question, then, now, verdict.reason));
    if (verdict?.kind === "improvement")
      improvements.push(change(now.question, then, now, verdict.reason));
  }
  return {
    baseline_id: baseline.evaluation.id,
    tolerance,
    matched,
    only_in_current: after.size - matched,
    only_in_baseline: before.size - matched,
    regressions,
    improvements,
    average_score: {
      baseline: baseline.summary.average_score,
      current: current.summary.average_score,
    },
    pass_rate: { baseline: baseline.summary.pass_rate, current: current.summary.pass_rate },
  };
}
