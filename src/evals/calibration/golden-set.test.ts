import { describe, expect, it } from "vitest";
import {
  constantBaseline,
  goldenSetVerdict,
  passFailBaseline,
  passFailFigures,
  roundToScale,
  scoreFigures,
} from "./golden-set.js";

const SCALE = { min: 1, max: 5 };
const repeat = (value: number, times: number) => new Array<number>(times).fill(value);

// 40 people's scores on 1-5 bunched on 3, as on the public RAG dialogue set the issue cites:
// twenty 3s, nine 2s, nine 4s, one 1 and one 5. "Always 3" is within ±1 of 38 of them: 95%.
const HUMAN = [...repeat(3, 20), ...repeat(2, 9), ...repeat(4, 9), 1, 5];

describe("the constant-baseline trap", () => {
  it("a judge that always says 3 meets seed 002's ±1 target and still fails", () => {
    const judge = repeat(3, HUMAN.length);
    const figures = scoreFigures(judge, HUMAN, SCALE);
    expect(figures.within_1).toBe(0.95);
    // MAE = (18·1 + 2·2) / 40 = 0.55; a constant has κ 0 and no rank correlation.
    expect(figures.mae).toBeCloseTo(0.55, 12);
    expect(figures.kappa_quadratic).toBeCloseTo(0, 12);
    expect(figures.spearman).toBeNull();
    const baseline = constantBaseline(HUMAN, SCALE);
    expect(baseline?.constant).toBe(3);
    expect(baseline?.within_1).toBe(0.95);
    const verdict = goldenSetVerdict({
      scores: figures,
      baseline,
      passFail: null,
      passFailBaseline: null,
    });
    expect(verdict.passed).toBe(false);
    expect(verdict.basis).toBe("scores");
    expect(verdict.conditions.map((c) => [c.name, c.ok])).toEqual([
      ["within_1", true],
      ["kappa", false],
      ["beats_baseline", false],
    ]);
    expect(verdict.failed.join("\n")).toMatch(/κ is 0\.000, threshold 0\.6/);
    expect(verdict.failed.join("\n")).toMatch(
      /does not beat the constant baseline's 0\.550 \(always 3\)/,
    );
  });

  it("a judge that tracks people passes all three conditions", () => {
    // Right on every item but four of the 3s, which it scores 4: MAE 0.1, within ±1 = 1.
    const judge = HUMAN.map((h, i) => (i < 4 ? h + 1 : h));
    const figures = scoreFigures(judge, HUMAN, SCALE);
    expect(figures.mae).toBeCloseTo(0.1, 12);
    expect(figures.kappa_quadratic).toBeGreaterThan(0.9);
    const verdict = goldenSetVerdict({
      scores: figures,
      baseline: constantBaseline(HUMAN, SCALE),
      passFail: null,
      passFailBaseline: null,
    });
    expect(verdict).toMatchObject({ passed: true, failed: [] });
  });

  it("a noisy judge below the ±1 target fails on it, named", () => {
    // Off by 2 on 9 of 40 items (77.5% within ±1).
    const judge = HUMAN.map((h, i) => (i % 4 === 0 && i < 36 ? (h <= 3 ? h + 2 : h - 2) : h));
    const verdict = goldenSetVerdict({
      scores: scoreFigures(judge, HUMAN, SCALE),
      baseline: constantBaseline(HUMAN, SCALE),
      passFail: null,
      passFailBaseline: null,
    });
    expect(verdict.passed).toBe(false);
    expect(verdict.failed[0]).toBe("share within ±1 is 0.775, target 0.9");
  });
});

describe("scoreFigures", () => {
  it("rounds the judge's score to the scale for κ and α, but not for MAE", () => {
    expect(roundToScale(6.7, { min: 1, max: 10 })).toBe(7);
    expect(roundToScale(0.2, { min: 1, max: 10 })).toBe(1);
    const figures = scoreFigures([4.6, 2.4, 1.2], [5, 2, 1], SCALE);
    expect(figures.mae).toBeCloseTo((0.4 + 0.4 + 0.2) / 3, 12);
    expect(figures.kappa_quadratic).toBe(1);
    expect(figures.alpha_ordinal).toBe(1);
  });
});

describe("pass/fail", () => {
  it("with only pass/fail labels, decides on accuracy, κ and the constant verdict", () => {
    // People pass 8 of 10; the judge passes everything: accuracy 0.8 = the baseline's.
    const human = [true, true, true, true, true, true, true, true, false, false];
    const judge = repeat(1, 10).map(() => true);
    const figures = passFailFigures(judge, human);
    expect(figures).toMatchObject({ tp: 8, fp: 2, tn: 0, fn: 0, accuracy: 0.8, tpr: 1, tnr: 0 });
    const baseline = passFailBaseline(human);
    expect(baseline).toMatchObject({ constant: true, accuracy: 0.8 });
    const verdict = goldenSetVerdict({
      scores: null,
      baseline: null,
      passFail: figures,
      passFailBaseline: baseline,
    });
    expect(verdict.basis).toBe("pass_fail");
    expect(verdict.conditions.map((c) => c.ok)).toEqual([false, false, false]);
  });

  it("without labels fails, saying so", () => {
    const verdict = goldenSetVerdict({
      scores: null,
      baseline: null,
      passFail: null,
      passFailBaseline: null,
    });
    expect(verdict).toMatchObject({ passed: false, basis: "none" });
    expect(verdict.failed[0]).toMatch(/no judged result has a human label/);
  });
});
