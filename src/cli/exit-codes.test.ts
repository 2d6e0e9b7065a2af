import { describe, expect, it } from "vitest";
import { incompleteReason } from "./exit-codes.js";

const run = (
  status: "COMPLETED" | "FAILED" | "PAUSED",
  scored: number,
  reason: string | null = null,
) => ({
  evaluation: { status, status_reason: reason },
  summary: { total: 3, scored, errors: { bot: 2, judge: 1 } },
});

describe("incompleteReason", () => {
  it("is nothing for a completed run with a scored question", () => {
    expect(incompleteReason(run("COMPLETED", 1))).toBeUndefined();
  });

  it("says why in English by default and in Chinese when asked", () => {
    expect(incompleteReason(run("COMPLETED", 0))).toBe(
      "no question was scored: 2 bot error(s), 1 judge error(s)",
    );
    expect(incompleteReason(run("COMPLETED", 0), "zh")).toBe(
      "没有一道题得到分数：机器人出错 2 次，评审出错 1 次",
    );
    expect(incompleteReason(run("PAUSED", 1), "zh")).toBe(
      "评测状态为 PAUSED，没有完成（COMPLETED）",
    );
    expect(incompleteReason(run("FAILED", 0), "zh")).toBe("评测失败（FAILED）：没有记录原因");
    expect(incompleteReason(run("FAILED", 0, "the judge model is gone"))).toBe(
      "the evaluation FAILED: the judge model is gone",
    );
  });
});
