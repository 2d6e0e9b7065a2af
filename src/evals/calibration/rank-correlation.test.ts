import { describe, expect, it } from "vitest";
import { averageRanks, denseRanks, kendallTauB, spearmanRho } from "./rank-correlation.js";

// Independently computed: by hand below, and with scipy 1.17.1 (stats.kendalltau, which is τ-b,
// and stats.spearmanr) for the 40-item case.
const H40 = [
  5, 4, 4, 5, 3, 4, 5, 2, 1, 2, 2, 5, 5, 1, 3, 5, 1, 4, 1, 3, 5, 2, 2, 2, 4, 2, 5, 3, 3, 3, 3, 3, 3,
  5, 5, 4, 4, 4, 2, 5,
];
const J40 = [
  5, 3, 5, 3, 5, 5, 3, 1, 1, 1, 1, 5, 5, 1, 5, 5, 3, 5, 1, 3, 4, 2, 1, 1, 5, 1, 3, 1, 5, 4, 5, 2, 4,
  4, 5, 2, 5, 5, 3, 3,
];

describe("kendallTauB", () => {
  it("matches a small case with ties computed by hand", () => {
    // x = (1,2,2,3), y = (1,3,2,3). Of 6 pairs, 4 concordant, 0 discordant, one tied in x only
    // (items 2,3), one tied in y only (items 2,4): τ_b = 4 / √((6−1)(6−1)) = 0.8.
    expect(kendallTauB([1, 2, 2, 3], [1, 3, 2, 3])).toBeCloseTo(0.8, 12);
  });

  it("matches scipy on 40 tied 1-5 scores", () => {
    expect(kendallTauB(J40, H40)).toBeCloseTo(0.5034742439125681, 12);
  });

  it("is symmetric and flips sign with a reversed order", () => {
    expect(kendallTauB(H40, J40)).toBeCloseTo(kendallTauB(J40, H40) ?? NaN, 12);
    expect(kendallTauB([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
  });

  it("is undefined for a constant side or fewer than two pairs", () => {
    expect(kendallTauB([3, 3, 3], [1, 2, 3])).toBeNull();
    expect(kendallTauB([1], [1])).toBeNull();
  });
});

describe("spearmanRho", () => {
  it("matches a small case with ties computed by hand", () => {
    // Average ranks: x → (1, 2.5, 2.5, 4), y → (1, 3.5, 2, 3.5); deviations from 2.5:
    // dx = (−1.5, 0, 0, 1.5), dy = (−1.5, 1, −0.5, 1); Σdxdy = 3.75, Σdx² = Σdy² = 4.5.
    // ρ = 3.75 / 4.5.
    expect(averageRanks([1, 2, 2, 3])).toEqual(new Float64Array([1, 2.5, 2.5, 4]));
    expect(spearmanRho([1, 2, 2, 3], [1, 3, 2, 3])).toBeCloseTo(3.75 / 4.5, 12);
  });

  it("matches scipy on 40 tied 1-5 scores", () => {
    expect(spearmanRho(J40, H40)).toBeCloseTo(0.6238276389563314, 12);
  });

  it("is undefined for a constant side", () => {
    expect(spearmanRho([3, 3, 3], [1, 2, 3])).toBeNull();
  });
});

describe("denseRanks", () => {
  it("ranks a few distinct scores 1.. with ties sharing a rank", () => {
    expect(denseRanks([2.5, 1, 2.5, 10, 1])).toEqual({
      ranks: new Int32Array([2, 1, 2, 3, 1]),
      distinct: 3,
    });
  });

  it("ranks many distinct values (more than the map holds) the same way", () => {
    // 7919 is prime to 5000, so i ↦ 7919·i mod 5000 is a permutation of 0..4999: value v has rank v + 1.
    const values = Array.from({ length: 5000 }, (_, i) => (7919 * i) % 5000);
    const { ranks, distinct } = denseRanks([...values, ...values]);
    expect(distinct).toBe(5000);
    expect([...ranks]).toEqual([...values, ...values].map((v) => v + 1));
  });
});
