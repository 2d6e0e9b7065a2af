import { describe, expect, it } from "vitest";
import { conditionMessage, conditionsInOrder, figureRows } from "./calibration-text";
import type { CalibrationReport } from "./queries";

// The shape the server sends (its schema is checked in test/calibration.test.ts): the constant
// baseline trap, where "always 7" is within ±1 of people more often than the judge.
const report: CalibrationReport = {
  evaluation: { id: "00000000-0000-4000-8000-000000000001", name: "run" },
  judge: "offline",
  scale: "1-10",
  items: { judged: 24, labelled_scores: 5, labelled_pass: 5, skipped_judge_errors: 0 },
  agreement: {
    n: 5,
    mae: 1.8,
    within_1: 0.6,
    kappa_quadratic: 0.41,
    alpha_ordinal: 0.4,
    spearman: 0.5,
    kendall_tau_b: 0.4,
  },
  baseline: {
    constant: 7,
    n: 5,
    mae: 0.8,
    within_1: 0.8,
    kappa_quadratic: 0,
    alpha_ordinal: null,
    spearman: null,
    kendall_tau_b: null,
  },
  pass_fail: null,
  pass_rate: {
    judge: { estimate: 0.5, ci: [0.31, 0.69], n: 24, method: "wilson" },
    human: { estimate: 0.8, ci: [0.38, 0.96], n: 5, method: "wilson" },
    ppi: { estimate: 0.72, ci: [0.4, 1], n: 5, N: 19, lambda: 0.3, method: "ppi++ clt" },
  },
  options: { target: 0.9, kappaMin: 0.6, tolerance: 1 },
  verdict: {
    passed: false,
    basis: "scores",
    conditions: [
      { name: "within_1", ok: false, value: 0.6, threshold: 0.9, message: "" },
      { name: "kappa", ok: false, value: 0.41, threshold: 0.6, message: "" },
      { name: "beats_baseline", ok: false, value: 1.8, threshold: 0.8, message: "" },
    ],
    failed: [],
  },
  disagreements: [],
  reviewers: [],
  warnings: [],
};

describe("the calibration panel's words", () => {
  it("says each condition with shares as percentages and the baseline's constant", () => {
    const [within, kappa, baseline] = report.verdict.conditions.map((c) =>
      conditionMessage(c, report),
    );
    expect(within).toEqual({
      key: "calib.cond.within_1",
      values: { value: "60.0%", threshold: "90.0%", tolerance: 1 },
    });
    expect(kappa).toEqual({
      key: "calib.cond.kappa",
      values: { value: "0.41", threshold: "0.60" },
    });
    expect(baseline).toEqual({
      key: "calib.cond.beats_baseline",
      values: { value: "1.80", threshold: "0.80", constant: 7 },
    });
  });

  it("says the pass/fail baseline as pass or fail", () => {
    const pf: CalibrationReport = {
      ...report,
      pass_fail: {
        n: 4,
        tp: 2,
        fp: 1,
        tn: 1,
        fn: 0,
        accuracy: 0.75,
        tpr: 1,
        tnr: 0.5,
        kappa: 0.5,
        human_pass_source: { labels: 4, scores: 0, threshold: null },
        baseline: {
          constant: true,
          n: 4,
          tp: 2,
          fp: 2,
          tn: 0,
          fn: 0,
          accuracy: 0.5,
          tpr: 1,
          tnr: 0,
          kappa: 0,
        },
      },
      verdict: {
        ...report.verdict,
        basis: "pass_fail",
        conditions: [
          { name: "beats_baseline", ok: true, value: 0.75, threshold: 0.5, message: "" },
        ],
      },
    };
    expect(conditionMessage(pf.verdict.conditions[0]!, pf)).toEqual({
      key: "calib.cond.beats_baseline_pf",
      values: { value: "75.0%", threshold: "50.0%", constant: "pass" },
    });
    expect(figureRows(pf).find((r) => r.key === "calib.row.accuracy")).toMatchObject({
      judge: "75.0%",
      baseline: "50.0%",
    });
  });

  it("puts failed conditions first, and tables every figure beside the baseline's", () => {
    const mixed = {
      ...report,
      verdict: {
        ...report.verdict,
        conditions: [
          { ...report.verdict.conditions[0]!, ok: true },
          ...report.verdict.conditions.slice(1),
        ],
      },
    };
    expect(conditionsInOrder(mixed).map((c) => c.name)).toEqual([
      "kappa",
      "beats_baseline",
      "within_1",
    ]);
    const rows = figureRows(report);
    expect(rows.find((r) => r.key === "calib.row.mae")).toMatchObject({
      judge: "1.80",
      baseline: "0.80",
    });
    expect(rows.find((r) => r.key === "calib.row.within")).toMatchObject({
      judge: "60.0%",
      baseline: "80.0%",
    });
    expect(rows.find((r) => r.key === "calib.row.ratePpi")?.judge).toBe("72.0% [40.0%, 100.0%]");
    // No pass/fail labels: no pass/fail rows.
    expect(rows.some((r) => r.key === "calib.row.accuracy")).toBe(false);
  });
});
