import { describe, expect, it } from "vitest";
import { checkLabels, PAIRWISE_RUBRIC, type Rubric } from "./rubric.js";

const rubric: Rubric = {
  kind: "criteria",
  criteria: [
    { name: "accuracy", scale: "1-5", description: "" },
    { name: "safe", scale: "pass_fail", description: "" },
  ],
};

describe("a label checked against the queue's rubric", () => {
  it("takes every criterion once, in rubric order, whatever order it came in", () => {
    expect(
      checkLabels(rubric, [
        { criterion: "safe", passed: false },
        { criterion: "accuracy", score: 2 },
      ]),
    ).toEqual({
      values: [
        { criterion: "accuracy", score: 2, passed: null, choice: null },
        { criterion: "safe", score: null, passed: false, choice: null },
      ],
    });
  });

  it("names the field at fault", () => {
    expect(checkLabels(rubric, [{ criterion: "accuracy", score: 2 }])).toEqual({
      field: "labels",
      reason: "safe is missing",
    });
    expect(checkLabels(rubric, [{ criterion: "tone", score: 2 }])).toEqual({
      field: "labels.0.criterion",
      reason: "not a criterion of this queue (accuracy, safe)",
    });
    expect(
      checkLabels(rubric, [
        { criterion: "accuracy", score: 6 },
        { criterion: "safe", passed: true },
      ]),
    ).toEqual({ field: "labels.0.score", reason: "a whole number from 1 to 5" });
    expect(
      checkLabels(rubric, [
        { criterion: "accuracy", score: 3 },
        { criterion: "safe", score: 1 },
      ]),
    ).toEqual({ field: "labels.1.passed", reason: "required on pass_fail" });
    expect(
      checkLabels(rubric, [
        { criterion: "accuracy", score: 3 },
        { criterion: "accuracy", score: 4 },
      ]),
    ).toEqual({ field: "labels.1.criterion", reason: "accuracy given twice" });
    expect(checkLabels(PAIRWISE_RUBRIC, [{ criterion: "preference", score: 1 }])).toEqual({
      field: "labels.0.choice",
      reason: "a, b or tie",
    });
  });
});
