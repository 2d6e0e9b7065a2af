import { describe, expect, it } from "vitest";
import type { JudgeResult } from "../../api/types";
import { groupJudgeErrors, judgeErrorKind } from "./judge-errors";

const failed = (cause: string): JudgeResult => ({
  name: "x",
  outcome: "judge_error",
  score: null,
  raw_score: null,
  passed: null,
  verdict: null,
  error: { message: "m", cause, retryable: false, raw: [] },
});

describe("judge errors by kind", () => {
  it("reads the kinds src/llm/failure-kinds.ts groups by", () => {
    expect(judgeErrorKind("reply")).toBe("unusable_reply");
    expect(judgeErrorKind("LlmTimeoutError")).toBe("timeout");
    expect(judgeErrorKind("error")).toBe("other");
    expect(judgeErrorKind(undefined)).toBe("other");
  });

  it("groups the failed judges, the most frequent kind first", () => {
    const groups = groupJudgeErrors({
      review: failed("LlmHttpError"),
      rubric: failed("reply"),
      reference: failed("reply"),
      offline: {
        name: "offline",
        outcome: "ok",
        score: 1,
        raw_score: 10,
        passed: true,
        verdict: {},
      },
    });
    expect(groups).toEqual([
      { kind: "unusable_reply", judges: ["rubric", "reference"] },
      { kind: "http", judges: ["review"] },
    ]);
  });
});
