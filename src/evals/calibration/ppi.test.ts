import { describe, expect, it } from "vitest";
import { ppiMean, wilsonInterval } from "./ppi.js";

describe("ppiMean (PPI++ with power tuning)", () => {
  // n = 4 labelled: Y = (1,0,1,1), Ŷ = (1,0,0,1); N = 6 unlabelled Ŷ = (1,1,0,1,0,1). By hand:
  //   Cov(Y, Ŷ) = (0.125 + 0.375 − 0.125 + 0.125) / 4 = 0.125 (means 0.75 and 0.5);
  //   Var(all 10 Ŷ, six ones) = (6·0.16 + 4·0.36) / 9 = 0.2667; 1 + n/N = 5/3;
  //   λ = 0.125 / (5/3 · 0.2667) = 0.28125;
  //   θ = 0.28125 · 4/6 + (0.75 − 0.28125 · 0.5) = 0.796875;
  //   se² = 0.28125² · (2/9) / 6 + var(0.71875, 0, 1, 0.71875) / 4 = 0.0029297 + 0.0342407;
  //   CI = θ ± 1.96 · 0.192796 = [0.419001, 1.174749]
  // and the same from a line-by-line numpy port of ppi_py's ppi_mean_ci(lam=None).
  const y = [1, 0, 1, 1];
  const yhat = [1, 0, 0, 1];
  const yhatUnlabelled = [1, 1, 0, 1, 0, 1];

  it("matches a small case computed by hand", () => {
    const result = ppiMean({ y, yhat, yhatUnlabelled });
    expect(result?.lambda).toBeCloseTo(0.28125, 12);
    expect(result?.estimate).toBeCloseTo(0.796875, 12);
    expect(result?.se).toBeCloseTo(0.19279629186332914, 10);
    expect(result?.ci[0]).toBeCloseTo(0.4190012115950022, 10);
    expect(result?.ci[1]).toBeCloseTo(1.1747487884049979, 10);
  });

  it("with λ = 0 is the human mean, with λ = 1 classic PPI", () => {
    expect(ppiMean({ y, yhat, yhatUnlabelled, lambda: 0 })?.estimate).toBe(0.75);
    // θ = 4/6 + (0.75 − 0.5) = 0.916667
    expect(ppiMean({ y, yhat, yhatUnlabelled, lambda: 1 })?.estimate).toBeCloseTo(11 / 12, 12);
  });

  it("narrows the human-only interval when the judge agrees with people", () => {
    // A judge that is right on every labelled item, with 1,000 unlabelled items.
    const labels = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? 0 : 1));
    const unlabelled = Array.from({ length: 1000 }, (_, i) => (i % 4 === 0 ? 0 : 1));
    const ppi = ppiMean({ y: labels, yhat: labels, yhatUnlabelled: unlabelled });
    const human = wilsonInterval(30, 40);
    expect(ppi?.lambda).toBeGreaterThan(0.9);
    const width = (ci: [number, number]) => ci[1] - ci[0];
    expect(width(ppi?.ci ?? [0, 1])).toBeLessThan(width(human?.ci ?? [0, 0]) / 3);
  });

  it("gives a constant judge no weight, and nothing for too little data", () => {
    expect(ppiMean({ y, yhat: [1, 1, 1, 1], yhatUnlabelled: [1, 1] })?.lambda).toBe(0);
    expect(ppiMean({ y: [1], yhat: [1], yhatUnlabelled: [1] })).toBeNull();
    expect(ppiMean({ y, yhat, yhatUnlabelled: [] })).toBeNull();
  });
});

describe("wilsonInterval", () => {
  it("matches the formula for 7 of 10", () => {
    const result = wilsonInterval(7, 10);
    expect(result?.estimate).toBe(0.7);
    expect(result?.ci[0]).toBeCloseTo(0.3967781474611453, 12);
    expect(result?.ci[1]).toBeCloseTo(0.8922087325936988, 12);
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});
