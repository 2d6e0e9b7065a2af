import { describe, expect, it } from "vitest";
import type { CalibrationRow } from "../../store/index.js";
import { renderCalibrationTable } from "./render.js";
import { buildCalibrationReport } from "./report.js";

const row = (position: number, raw: number, human: number | null, humanPassed: boolean | null) =>
  ({
    result_id: `r${position}`,
    position,
    question_text: `question ${position}`,
    answer: `answer ${position}`,
    outcome: "ok",
    defaulted: false,
    raw_score: raw,
    judge_passed: raw >= 7,
    human_score: human,
    human_passed: humanPassed,
    note: null,
    pass_note: null,
  }) satisfies CalibrationRow;

/** The verdict's lines: two spaces, ok or FAIL, then the condition's sentence. */
const verdictLines = (table: string) =>
  table.split("\n").filter((l) => /^ {2}(ok {2}|FAIL) /.test(l));

describe("the calibration table's verdict", () => {
  it("says each condition in Chinese with --lang zh, with the same figures as in English", () => {
    const scored = buildCalibrationReport({
      evaluation: { id: "e1", name: "run" },
      judge: "rubric",
      scale: "1-10",
      passThreshold: 7,
      rows: [row(0, 9, 2, null), row(1, 8, 8, null), row(2, 3, 4, null), row(3, 7, 6, null)],
    });
    const en = verdictLines(renderCalibrationTable(scored, "en"));
    const zh = verdictLines(renderCalibrationTable(scored, "zh"));
    expect(en).toHaveLength(3);
    expect(zh).toHaveLength(3);
    expect(en[0]).toContain("share within ±1 is 0.750, target 0.9");
    expect(zh[0]).toBe("  FAIL 与人工评分相差 ±1 以内的比例为 0.75，目标 0.9");
    expect(zh[1]).toMatch(/^ {2}(ok {2}|FAIL) 二次加权 κ 为 /);
    expect(zh[2]).toMatch(/MAE 2\.25 (优于|未优于)常数基线的/);
    for (const line of zh) expect(line).not.toMatch(/\b(is|target|beats|threshold)\b/);

    const unlabelled = buildCalibrationReport({
      evaluation: { id: "e1", name: "run" },
      judge: "rubric",
      scale: "1-10",
      passThreshold: 7,
      rows: [row(0, 9, null, null)],
    });
    expect(verdictLines(renderCalibrationTable(unlabelled, "zh"))).toEqual([
      "  FAIL 没有已评判结果带有该评判量表上的人工评分或通过/未通过标注",
    ]);
  });
});
