// Which of a run's results a queue is made of, as the form offers it: every scored one, only the
// failed or the passed ones, or the results whose judge or bot failed (to see what went wrong).

export const RESULT_CHOICES = ["scored", "failed", "passed", "judge_error", "bot_error"] as const;
export type ResultChoice = (typeof RESULT_CHOICES)[number];

export interface RunFilter {
  status: "SCORED" | "JUDGE_ERROR" | "BOT_ERROR";
  passed?: boolean;
}

/** The API's `filter` for a choice of the form. */
export function runFilterOf(choice: ResultChoice): RunFilter {
  switch (choice) {
    case "scored":
      return { status: "SCORED" };
    case "failed":
      return { status: "SCORED", passed: false };
    case "passed":
      return { status: "SCORED", passed: true };
    case "judge_error":
      return { status: "JUDGE_ERROR" };
    case "bot_error":
      return { status: "BOT_ERROR" };
  }
}
