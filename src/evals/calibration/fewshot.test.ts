import { describe, expect, it } from "vitest";
import type { CalibrationRow } from "../../store/index.js";
import { pickFewshot } from "./fewshot.js";

function row(position: number, human: number, judge: number, answer: string): CalibrationRow {
  return {
    result_id: `r${position}`,
    position,
    question_text: `q${position}`,
    answer,
    outcome: "ok",
    defaulted: false,
    raw_score: judge,
    judge_passed: judge >= 7,
    human_score: human,
    human_passed: null,
    note: null,
    pass_note: null,
  };
}

const abstains = (answer: string) => /do not (say|know)/.test(answer);
const SCALE = { min: 1, max: 10 };

describe("pickFewshot", () => {
  const rows = [
    row(0, 2, 3, "The sources do not say."),
    row(1, 2, 8.5, "It opened in 1931, founded by Dr. Han [1]."), // confident, over-scored
    row(2, 3, 4, "Founded in 1930 by the city."),
    row(3, 9, 8, "It opened on 18 September 2009 [1]."),
    row(4, 6, 7, "Around 2009, I think."),
    row(5, 5, 5, "Some time ago."),
    row(6, 10, 9, "Line 1 opened on 18 September 2009 [1]."),
  ];

  it("takes the confident fabrication the judge over-scored, then spans the scale", () => {
    const { picks, warnings } = pickFewshot(rows, { scale: SCALE, count: 3, abstains });
    expect(warnings).toEqual([]);
    // Targets after the fabrication: 9 and 5.5 (the top but one, and the middle).
    expect(picks.map((p) => [p.row.position, p.role])).toEqual([
      [1, "confident_low"],
      [3, "spanning"],
      [4, "spanning"],
    ]);
  });

  it("never takes an abstention as the fabrication, and warns when none is left", () => {
    const honest = rows.filter((r) => r.position !== 1 && r.position !== 2);
    const { picks, warnings } = pickFewshot(honest, { scale: SCALE, count: 2, abstains });
    expect(picks[0]).toMatchObject({ role: "lowest" });
    expect(warnings[0]?.code).toBe("fewshot.no_low_example");
  });

  it("says when there are too few labels", () => {
    const { picks, warnings } = pickFewshot(rows.slice(0, 2), { scale: SCALE, count: 4, abstains });
    expect(picks).toHaveLength(2);
    expect(warnings.at(-1)).toMatchObject({
      code: "fewshot.few_candidates",
      params: { picked: 2, asked: 4 },
    });
  });
});
