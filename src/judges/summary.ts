import type { JudgeResult } from "./result.js";
import { round } from "./result.js";

export interface JudgeSummary {
  total: number;
  /** Results that count: scored, not judge_error. */
  counted: number;
  judge_errors: number;
  /** Mean of `score` on [0, 1] over counted results; null when none count. */
  mean_score: number | null;
  /** Mean of `raw_score` (the judge's own scale) over counted results. */
  mean_raw_score: number | null;
  /** Share of counted results that passed. */
  pass_rate: number | null;
}

/** Averages and pass rates over scored results; a judge_error has no score to count. */
export function summarizeJudgeResults(results: readonly JudgeResult[]): JudgeSummary {
  let counted = 0;
  let judgeErrors = 0;
  let scoreSum = 0;
  let rawSum = 0;
  let passes = 0;
  for (const result of results) {
    if (result.outcome === "judge_error") {
      judgeErrors++;
      continue;
    }
    counted++;
    scoreSum += result.score;
    rawSum += result.raw_score;
    if (result.passed) passes++;
  }
  return {
    total: results.length,
    counted,
    judge_errors: judgeErrors,
    mean_score: counted > 0 ? round(scoreSum / counted, 4) : null,
    mean_raw_score: counted > 0 ? round(rawSum / counted, 4) : null,
    pass_rate: counted > 0 ? round(passes / counted, 4) : null,
  };
}

/** Population standard deviation; 0 for one value, null for none. */
export function standardDeviation(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
  return Math.sqrt(variance);
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/**
 * pass^k over many items (tau-bench): the chance that k independent trials of an item all pass,
 * estimated per item as C(c, k) / C(n, k) from its n counted trials with c passes, then averaged.
 * Items with fewer than k counted trials are skipped; null when none remain.
 */
export function passHatK(items: readonly (readonly boolean[])[], k: number): number | null {
  let sum = 0;
  let used = 0;
  for (const trials of items) {
    if (trials.length < k) continue;
    const passes = trials.filter(Boolean).length;
    sum += choose(passes, k) / choose(trials.length, k);
    used++;
  }
  return used > 0 ? round(sum / used, 4) : null;
}
