import { describe, expect, it } from "vitest";
import { everyResultFailed, shownRunStatus } from "./run-outcome";

const run = (status: string, completed: number, bot: number, judge: number) => ({
  status,
  completed_questions: completed,
  bot_error_count: bot,
  judge_error_count: judge,
});

describe("everyResultFailed", () => {
  it("is true for a completed run whose results are all bot or judge errors", () => {
    expect(everyResultFailed(run("COMPLETED", 24, 20, 4))).toBe(true);
    expect(shownRunStatus(run("COMPLETED", 24, 0, 24))).toBe("FAILED");
  });

  it("is false when one result was scored, while running, or with no results", () => {
    expect(everyResultFailed(run("COMPLETED", 24, 23, 0))).toBe(false);
    expect(everyResultFailed(run("RUNNING", 3, 3, 0))).toBe(false);
    expect(everyResultFailed(run("COMPLETED", 0, 0, 0))).toBe(false);
    expect(shownRunStatus(run("COMPLETED", 24, 1, 0))).toBe("COMPLETED");
  });
});
