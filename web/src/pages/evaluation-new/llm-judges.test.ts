import { describe, expect, it } from "vitest";
import { JUDGE_KINDS } from "../../api/types";
import { judgeUnavailable } from "./llm-judges";

describe("judgeUnavailable", () => {
  it("disables the LLM judges only when the server has no judge LLM", () => {
    expect(JUDGE_KINDS.filter((j) => judgeUnavailable(j, false))).toEqual([
      "review",
      "rubric",
      "reference",
      "claims",
    ]);
    expect(JUDGE_KINDS.filter((j) => judgeUnavailable(j, true))).toEqual([]);
    // Before the server has said, nothing is disabled (the server still refuses what it cannot run).
    expect(JUDGE_KINDS.filter((j) => judgeUnavailable(j, undefined))).toEqual([]);
  });
});
