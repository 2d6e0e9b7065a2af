import { describe, expect, it } from "vitest";
import type { JudgeResult } from "../../api/types";
import { failingJudges, ownScale } from "./verdict";

const ok = (raw: number, score: number, passed: boolean): JudgeResult => ({
  name: "x",
  outcome: "ok",
  raw_score: raw,
  score,
  passed,
  verdict: {},
});

describe("a judge on its own scale", () => {
  it("shows rubric and offline out of 10, reference out of 5, review as pass or fail", () => {
    expect(ownScale("offline", ok(3.75, 0.3056, false))).toBe("3.8 / 10");
    expect(ownScale("rubric", ok(7.8, 0.7556, true))).toBe("7.8 / 10");
    expect(ownScale("reference", ok(4, 0.75, true))).toBe("4 / 5");
    expect(ownScale("review", ok(1, 1, true))).toBeUndefined();
  });

  it("names only the judges that scored and failed", () => {
    expect(failingJudges({ review: ok(1, 1, true), offline: ok(3, 0.2, false) })).toEqual([
      "offline",
    ]);
  });
});
