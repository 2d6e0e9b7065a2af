import { describe, expect, it } from "vitest";
import { type JudgeResult, judgeFailure } from "./result.js";
import { passHatK, standardDeviation, summarizeJudgeResults } from "./summary.js";

function result(score: number, passed: boolean, failed = false): JudgeResult {
  const base = { name: "rubric" as const, language: "en" as const, model: "m", calls: [] };
  if (failed) {
    return judgeFailure(base, { message: "unusable", cause: "reply", retryable: true, raw: [] });
  }
  return { ...base, outcome: "ok", score, raw_score: 1 + score * 9, passed, verdict: {} };
}

describe("summarizeJudgeResults", () => {
  it("excludes judge errors from averages and pass rates", () => {
    const summary = summarizeJudgeResults([
      result(1, true),
      result(0.5, false),
      result(0, false, true),
      result(0, false, true),
    ]);
    expect(summary).toEqual({
      total: 4,
      counted: 2,
      judge_errors: 2,
      mean_score: 0.75,
      mean_raw_score: 7.75,
      pass_rate: 0.5,
    });
  });
  it("gives null averages when nothing counts", () => {
    expect(summarizeJudgeResults([result(0, false, true)])).toMatchObject({
      counted: 0,
      mean_score: null,
      pass_rate: null,
    });
    expect(summarizeJudgeResults([])).toMatchObject({ total: 0, mean_score: null });
  });
});

describe("standardDeviation", () => {
  it("is the population standard deviation", () => {
    expect(standardDeviation([2, 4, 4, 4, 5, 5, 7, 9])).toBe(2);
    expect(standardDeviation([3])).toBe(0);
    expect(standardDeviation([])).toBeNull();
  });
});

describe("passHatK", () => {
  it("estimates the chance that k trials all pass", () => {
    expect(passHatK([[true, true, true]], 3)).toBe(1);
    expect(passHatK([[true, true, false]], 1)).toBeCloseTo(0.6667, 4);
    // C(2,2)/C(3,2) = 1/3
    expect(passHatK([[true, true, false]], 2)).toBeCloseTo(0.3333, 4);
    expect(
      passHatK(
        [
          [true, true, false],
          [true, true, true],
        ],
        3,
      ),
    ).toBe(0.5);
    expect(passHatK([[true]], 2)).toBeNull();
  });
});
