/** The counters a run's outcome is read from (a listed run and a run's detail both carry them). */
export interface RunCounters {
  status: string;
  completed_questions: number;
  bot_error_count: number;
  judge_error_count: number;
}

/**
 * True for a finished run whose every result is a bot or judge error: nothing was scored, so it is
 * shown as failed, not as a completed run with empty averages (issue 23 §1.4).
 */
export function everyResultFailed(run: RunCounters): boolean {
  return (
    run.status === "COMPLETED" &&
    run.completed_questions > 0 &&
    run.bot_error_count + run.judge_error_count >= run.completed_questions
  );
}

/** The status a run is shown with: FAILED when every result is an error. */
export function shownRunStatus(run: RunCounters): string {
  return everyResultFailed(run) ? "FAILED" : run.status;
}
