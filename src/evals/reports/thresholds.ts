import { z } from "zod";
import type { MessageLanguage } from "../../text/index.js";
import type { EvaluationSummary } from "../runs/index.js";
import { reportWord } from "./report-words.js";

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

/**
 * Checks a summary against the thresholds set; a missing measure (nothing scored) fails. Each
 * check's message is worded in `lang` (`--lang zh`).
 */
export function checkThresholds(
  summary: EvaluationSummary,
  thresholds: Thresholds,
  lang: MessageLanguage = "en",
): ThresholdCheck[] {
  const checks: ThresholdCheck[] = [];
  if (thresholds.min_score !== undefined) {
    const limit = thresholds.min_score;
    const actual = summary.average_score;
    const ok = actual !== null && actual >= limit;
    checks.push({
      flag: "--min-score",
      ok,
      actual,
      limit,
      message:
        actual === null
          ? reportWord(lang, "minScoreMissing", { limit })
          : reportWord(lang, ok ? "minScoreMet" : "minScoreMissed", {
              actual: fixed(actual),
              limit,
            }),
    });
  }
  if (thresholds.min_pass_rate !== undefined) {
    const limit = thresholds.min_pass_rate;
    const actual = summary.pass_rate;
    const ok = actual !== null && actual >= limit;
    checks.push({
      flag: "--min-pass-rate",
      ok,
      actual,
      limit,
      message:
        actual === null
          ? reportWord(lang, "passRateMissing", { limit })
          : reportWord(lang, ok ? "passRateMet" : "passRateMissed", {
              actual: fixed(actual),
              scored: summary.scored,
              limit,
            }),
    });
  }
  if (thresholds.max_errors !== undefined) {
    const limit = thresholds.max_errors;
    const { bot, judge } = summary.errors;
    const actual = bot + judge;
    const ok = actual <= limit;
    checks.push({
      flag: "--max-errors",
      ok,
      actual,
      limit,
      message: reportWord(lang, ok ? "errorsWithin" : "errorsExceed", {
        actual,
        bot,
        judge,
        limit,
      }),
    });
  }
  return checks;
}
