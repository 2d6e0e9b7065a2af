import { describe, expect, it } from "vitest";
import { reasoningOf } from "./judgment-reasoning";

describe("reasoningOf", () => {
  it("reads the reasons a judge wrote, and review's problems", () => {
    expect(
      reasoningOf({
        reasoning: " Matches the passage. ",
        reasonableness: { passed: false, problems: ["The year is not in the passage."] },
        evidence: { passed: true, problems: [] },
        score: 4,
      }),
    ).toEqual(["Matches the passage.", "The year is not in the passage."]);
  });
  it("gives nothing for a verdict without words", () => {
    expect(reasoningOf(null)).toEqual([]);
    expect(reasoningOf({ score: 1 })).toEqual([]);
  });
});
