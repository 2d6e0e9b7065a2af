import { describe, expect, it } from "vitest";
import {
  confusion,
  meanAbsoluteError,
  mostCommon,
  quadraticWeightedKappa,
  shareWithin,
} from "./agreement.js";

/** Expands a contingency table (rows: first rater's category lo.., columns: second's) to pairs. */
function pairsOf(table: number[][], lo = 1): [number[], number[]] {
  const a: number[] = [];
  const b: number[] = [];
  table.forEach((row, i) =>
    row.forEach((count, j) => {
      for (let k = 0; k < count; k++) {
        a.push(lo + i);
        b.push(lo + j);
      }
    }),
  );
  return [a, b];
}

describe("quadraticWeightedKappa", () => {
  it("matches a 3x3 table computed by hand", () => {
    // O = [[10,5,0],[3,20,2],[0,4,6]], n = 50; rows r = (15,25,10), columns c = (13,29,8).
    // Σ w·O (w = (i−j)²): the off-diagonal cells 5 + 3 + 2 + 4 at distance 1 = 14.
    // Σ w·r_i·c_j / n = (15·(29 + 4·8) + 25·(13 + 8) + 10·(4·13 + 29)) / 50 = 2250 / 50 = 45.
    // κ_w = 1 − 14/45 = 31/45.
    const [a, b] = pairsOf([
      [10, 5, 0],
      [3, 20, 2],
      [0, 4, 6],
    ]);
    expect(quadraticWeightedKappa(a, b)).toBeCloseTo(31 / 45, 12);
  });

  it("is plain Cohen's kappa with two categories", () => {
    // [[20,5],[10,15]]: p_o = 35/50 = 0.7, p_e = (25·30 + 25·20)/2500 = 0.5, κ = 0.2/0.5 = 0.4.
    const [a, b] = pairsOf([
      [20, 5],
      [10, 15],
    ]);
    expect(quadraticWeightedKappa(a, b)).toBeCloseTo(0.4, 12);
  });

  it("is 1 for perfect agreement, 0 for a constant rater, null when undefined", () => {
    expect(quadraticWeightedKappa([1, 2, 3, 5], [1, 2, 3, 5])).toBe(1);
    expect(quadraticWeightedKappa([3, 3, 3, 3], [1, 2, 3, 5])).toBeCloseTo(0, 12);
    expect(quadraticWeightedKappa([3, 3], [3, 3])).toBeNull();
    expect(quadraticWeightedKappa([], [])).toBeNull();
    expect(() => quadraticWeightedKappa([6.5], [7])).toThrow(/not an integer/);
  });
});

describe("MAE and the ±1 share", () => {
  it("averages absolute differences and counts those within the tolerance", () => {
    // |7−8| = 1, |6.7−5.7| = 1 (not 1.0000000000000009), |3−9| = 6, |5−5| = 0.
    const judge = [7, 6.7, 3, 5];
    const human = [8, 5.7, 9, 5];
    expect(meanAbsoluteError(judge, human)).toBeCloseTo(8 / 4, 12);
    expect(shareWithin(judge, human)).toBe(0.75);
    expect(shareWithin(judge, human, 0)).toBe(0.25);
    expect(meanAbsoluteError([], [])).toBeNull();
    expect(() => meanAbsoluteError([1], [])).toThrow(/differ in length/);
  });
});

describe("mostCommon", () => {
  it("takes the most frequent value, the smaller one on a tie", () => {
    expect(mostCommon([3, 4, 3, 2, 4])).toBe(3);
    expect(mostCommon([5, 5, 1])).toBe(5);
    expect(mostCommon([])).toBeNull();
  });
});

describe("confusion", () => {
  it("counts the four cells with human pass as the positive class", () => {
    const judge = [true, true, false, false, true, false];
    const human = [true, false, false, true, true, false];
    expect(confusion(judge, human)).toEqual({
      tp: 2,
      fp: 1,
      tn: 2,
      fn: 1,
      accuracy: 4 / 6,
      tpr: 2 / 3,
      tnr: 2 / 3,
    });
    expect(confusion([true], [true]).tnr).toBeNull();
  });
});
