import { type EvaluationReport, reportWord } from "../evals/reports/index.js";
import type { MessageLanguage } from "../text/index.js";

/**
 * One table of exit codes for every command (docs/security.md, "Exit codes"), so CI can tell a
 * quality failure from a run that could not be completed.
 */
export const EXIT = {
  /** Done: everything ran and every check passed. */
  done: 0,
  /** A quality check failed: an answer failed the gate, a threshold or a baseline. */
  checkFailed: 1,
  /** Usage or input error: bad flags, invalid lines or rows, a missing collection or config. */
  usage: 2,
  /** The run could not be completed: provider outage, every judge failed, a crash, a failed run. */
  incomplete: 3,
  /** Interrupted (Ctrl-C); an evaluation is paused and can be resumed. */
  interrupted: 130,
} as const;

/**
 * Why a run could not be completed (exit code 3), if it could not: it did not end COMPLETED, or
 * not one question was scored because every one ended in an error (an outage, a broken judge).
 */
export function incompleteReason(
  report: {
    evaluation: Pick<EvaluationReport["evaluation"], "status" | "status_reason">;
    summary: Pick<EvaluationReport["summary"], "total" | "scored" | "errors">;
  },
  lang: MessageLanguage = "en",
): string | undefined {
  const { evaluation: e, summary: s } = report;
  if (e.status === "FAILED") {
    const reason = e.status_reason ?? reportWord(lang, "incompleteNoReason");
    return reportWord(lang, "incompleteFailed", { reason });
  }
  if (e.status !== "COMPLETED") return reportWord(lang, "incompleteStatus", { status: e.status });
  if (s.total > 0 && s.scored === 0) {
    const { bot, judge } = s.errors;
    return reportWord(lang, "incompleteNothingScored", { bot, judge });
  }
  return undefined;
}
