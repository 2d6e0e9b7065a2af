import { describe, expect, it } from "vitest";
import { changedOnly } from "./changed";

const side = (
  over: Partial<{
    status: string;
    passed: boolean | null;
    gate_status: string | null;
    score: number | null;
  }> = {},
) => ({
  status: "SCORED",
  passed: true,
  gate_status: "pass",
  score: 0.8,
  ...over,
});

describe("changedOnly", () => {
  it("keeps regressions, improvements and unchanged-score items whose verdict moved", () => {
    const items = [
      { change: "regression", base: side(), head: side({ score: 0.2 }) },
      { change: "unchanged", base: side(), head: side() },
      { change: "unchanged", base: side(), head: side({ gate_status: "partial" }) },
      { change: "improvement", base: side({ score: 0.1 }), head: side() },
    ];
    expect(changedOnly(items).map((i) => i.change)).toEqual([
      "regression",
      "unchanged",
      "improvement",
    ]);
  });
});
