import { z } from "zod";
import type { EvaluationSummary } from "../runs/index.js";

/** CI gates on a run's summary; each is checked only when set. */
export const ThresholdsSchema = z.object({
  /** The average score (over scored questions, on [0, 1]) must be at least this. */
  min_score: z.number().min(0, "a score from 0 to 1").max(1, "a score from 0 to 1").optional(),
  /** The share of scored questions that passed (0 to 1) must be at least this. */
  min_pass_rate: z.number().min(0, "a share from 0 to 1").optional(),
  /** Bot and judge errors together may be at most this many. */
  max_errors: z.number().int("a whole number").min(0, "0 or more").optional(),
});
export type Thresholds = z.infer<typeof ThresholdsSchema>;

export interface ThresholdCheck {
  /** The CLI flag it comes from. */
  flag: "--min-score" | "--min-pass-rate" | "--max-errors";
  ok: boolean;
  actual: number | null;
  limit: number;
  message: string;
}

const fixed = (value: number) => value.toFixed(3);

/** Checks a summary against the thresholds set; a missing measure (nothing scored) fails. */
export function checkThresholds(
  summary: EvaluationSummary,
  thresholds: Thresholds,
): ThresholdCheck[] {
  const checks: ThresholdCheck[] = [];
  if (thresholds.min_score !== undefined) {
    const limit = thresholds.min_score;
    const actual = summary.average_score;
    checks.push({
      flag: "--min-score",
      ok: actual !== null && actual >= limit,
      actual,
      limit,
      message:
        actual === null
          ? `no question was scored, so there is no average score to meet --min-score ${limit}`
          : `average score ${fixed(actual)} ${actual >= limit ? "meets" : "is below"} --min-score ${limit}`,
    });
  }
  if (thresholds.min_pass_rate !== undefined) {
    const limit = thresholds.min_pass_rate;
    const actual = summary.pass_rate;
    checks.push({
      flag: "--min-pass-rate",
      ok: actual !== null && actual >= limit,
      actual,
      limit,
      message:
        actual === null
          ? `no question was scored, so there is no pass rate to meet --min-pass-rate ${limit}`
          : `pass rate ${fixed(actual)} (${summary.scored} scored) ${actual >= limit ? "meets" : "is below"} --min-pass-rate ${limit}`,
    });
  }
  if (thresholds.max_errors !== undefined) {
    const limit = thresholds.max_errors;
    const actual = summary.errors.bot + summary.errors.judge;
    checks.push({
      flag: "--max-errors",
      ok: actual <= limit,
      actual,
      limit,
      message: `${actual} error(s) (${summary.errors.bot} bot, ${summary.errors.judge} judge) ${actual <= limit ? "within" : "exceed"} --max-errors ${limit}`,
    });
  }
  return checks;
}
