import { describe, expect, it } from "vitest";
import type { CalibrationRow } from "../../store/index.js";
import { ppiMean, wilsonInterval } from "./ppi.js";
import { buildCalibrationReport } from "./report.js";

function row(position: number, fields: Partial<CalibrationRow>): CalibrationRow {
  return {
    result_id: `r${position}`,
    position,
    question_text: `question ${position}`,
    answer: `answer ${position}`,
    outcome: "ok",
    defaulted: false,
    raw_score: 5,
    judge_passed: false,
    human_score: null,
    human_passed: null,
    note: null,
    pass_note: null,
    ...fields,
  };
}

describe("buildCalibrationReport", () => {
  const rows = [
    row(0, { raw_score: 9, judge_passed: true, human_score: 2, note: "confident fabrication" }),
    row(1, { raw_score: 8, judge_passed: true, human_score: 8 }),
    row(2, { raw_score: 3, judge_passed: false, human_score: 4 }),
    // A pass/fail label wins over the score's threshold.
    row(3, { raw_score: 7, judge_passed: true, human_score: 6, human_passed: true }),
    // Judge errors never count, labelled or not (the faults branch stores score null on them).
    row(4, { outcome: "judge_error", defaulted: true, raw_score: 1, human_score: 9 }),
    row(5, { outcome: "judge_error", raw_score: null, judge_passed: null }),
    row(6, { raw_score: 8, judge_passed: true }),
    row(7, { raw_score: 2, judge_passed: false }),
  ];
  const report = buildCalibrationReport({
    evaluation: { id: "e1", name: "run" },
    judge: "rubric",
    scale: "1-10",
    passThreshold: 7,
    rows,
  });

  it("pairs judged, labelled results and skips judge errors", () => {
    expect(report.items).toEqual({
      judged: 6,
      labelled_scores: 4,
      labelled_pass: 4,
      skipped_judge_errors: 1,
    });
    // |9−2| + |8−8| + |3−4| + |7−6| = 9 over 4.
    expect(report.agreement?.mae).toBeCloseTo(9 / 4, 12);
    expect(report.agreement?.within_1).toBe(0.75);
    expect(report.warnings).toContainEqual(
      expect.objectContaining({ code: "calibration.few_labels", params: { n: 4, min: 30 } }),
    );
    expect(report.warnings).toContainEqual(
      expect.objectContaining({
        code: "calibration.skipped_judge_errors",
        params: { n: 1, judge: "rubric" },
      }),
    );
  });

  it("reads a person's pass from a pass/fail label, else from the score's threshold", () => {
    // Human passes: 2 < 7 fail, 8 pass, 4 fail, label pass. Judge: pass, pass, fail, pass.
    expect(report.pass_fail).toMatchObject({ tp: 2, fp: 1, tn: 1, fn: 0 });
    expect(report.pass_fail?.human_pass_source).toEqual({ labels: 1, scores: 3, threshold: 7 });
  });

  it("reports the three pass rates with the PPI++ estimate over the unlabelled rest", () => {
    expect(report.pass_rate.judge).toMatchObject({ ...wilsonInterval(4, 6), n: 6 });
    expect(report.pass_rate.human).toMatchObject({ ...wilsonInterval(2, 4), n: 4 });
    const ppi = ppiMean({ y: [0, 1, 0, 1], yhat: [1, 1, 0, 1], yhatUnlabelled: [1, 0] });
    expect(report.pass_rate.ppi?.estimate).toBeCloseTo(ppi?.estimate ?? NaN, 12);
    expect(report.pass_rate.ppi?.lambda).toBeCloseTo(ppi?.lambda ?? NaN, 12);
    expect(report.pass_rate.ppi).toMatchObject({ n: 4, N: 2, method: "ppi++ clt" });
    const [low, high] = report.pass_rate.ppi?.ci ?? [NaN, NaN];
    expect(low).toBeGreaterThanOrEqual(0);
    expect(high).toBeLessThanOrEqual(1);
  });

  it("lists the largest disagreements first", () => {
    expect(report.disagreements.map((d) => [d.position, d.difference])).toEqual([
      [0, 7],
      [2, -1],
      [3, 1],
    ]);
    expect(report.disagreements[0]?.note).toBe("confident fabrication");
  });

  it("fails the verdict and names each failed condition", () => {
    expect(report.verdict.passed).toBe(false);
    expect(report.verdict.failed[0]).toMatch(/share within ±1 is 0\.750/);
  });
});
