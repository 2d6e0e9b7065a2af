import { describe, expect, it } from "vitest";
import { expectedScore, fitBradleyTerry, mleExists } from "./bradley-terry.js";

const matrix = (rows: number[][]) => rows.map((row) => Float64Array.from(row));

/**
 * A separately written reference: Newton's method on the log-likelihood in log-strengths
 * (beta_0 = 0), sum_ij w_ij [beta_i - log(e^beta_i + e^beta_j)]. Not the MM iteration under test.
 */
function newtonReference(w: number[][]): number[] {
  const k = w.length;
  const beta = new Array<number>(k).fill(0);
  for (let iteration = 0; iteration < 200; iteration++) {
    const g = new Array<number>(k).fill(0);
    const h = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        if (i === j) continue;
        const n = w[i]![j]! + w[j]![i]!;
        const p = 1 / (1 + Math.exp(beta[j]! - beta[i]!));
        g[i]! += w[i]![j]! - n * p;
        h[i]![i]! -= (n * p * (1 - p)) / 2;
        h[i]![j]! += (n * p * (1 - p)) / 2;
      }
    }
    // Each unordered pair was visited twice above; drop parameter 0 and solve the rest.
    const m = k - 1;
    const a = Array.from({ length: m }, (_, r) => [
      ...Array.from({ length: m }, (_, c) => -2 * h[r + 1]![c + 1]!),
      g[r + 1]!,
    ]);
    for (let c = 0; c < m; c++) {
      for (let r = 0; r < m; r++) {
        if (r === c) continue;
        const f = a[r]![c]! / a[c]![c]!;
        for (let x = c; x <= m; x++) a[r]![x]! -= f * a[c]![x]!;
      }
    }
    for (let r = 0; r < m; r++) beta[r + 1]! += a[r]![m]! / a[r]![r]!;
  }
  const mean = beta.reduce((s, b) => s + b, 0) / k;
  return beta.map((b) => 1000 + (400 / Math.LN10) * (b - mean));
}

describe("fitBradleyTerry", () => {
  it("matches the closed form for two players: ratings differ by 400 log10(W_A / W_B)", () => {
    // A beat B 7 times, lost 3, tied 2: W_A = 7 + 1 = 8, W_B = 3 + 1 = 4.
    const fit = fitBradleyTerry(
      matrix([
        [0, 8],
        [4, 0],
      ]),
    );
    expect(fit.ratings[0]! - fit.ratings[1]!).toBeCloseTo(400 * Math.log10(2), 8);
    expect((fit.ratings[0]! + fit.ratings[1]!) / 2).toBeCloseTo(1000, 8);
    expect(expectedScore(fit.ratings[0]!, fit.ratings[1]!)).toBeCloseTo(8 / 12, 8);
    expect(fit.regularized).toBe(false);
  });

  it("agrees with an independent Newton solver and satisfies the likelihood equations", () => {
    const w = [
      [0, 6, 9, 4.5],
      [3, 0, 5.5, 7],
      [2, 4.5, 0, 6],
      [1.5, 3, 2, 0],
    ];
    const fit = fitBradleyTerry(matrix(w));
    const reference = newtonReference(w);
    fit.ratings.forEach((rating, i) => expect(rating).toBeCloseTo(reference[i]!, 6));
    // Score equations: each player's wins equal its expected wins at the MLE.
    w.forEach((row, i) => {
      const observed = row.reduce((s, v) => s + v, 0);
      let expected = 0;
      row.forEach((_, j) => {
        if (i === j) return;
        const n = w[i]![j]! + w[j]![i]!;
        expected += n * expectedScore(fit.ratings[i]!, fit.ratings[j]!);
      });
      expect(expected).toBeCloseTo(observed, 6);
    });
  });

  it("adds a virtual tie per pair when someone won every game (no MLE), and says so", () => {
    const w = matrix([
      [0, 5, 5],
      [0, 0, 3],
      [0, 2, 0],
    ]);
    expect(mleExists(w)).toBe(false);
    const fit = fitBradleyTerry(w);
    expect(fit.regularized).toBe(true);
    expect(Number.isFinite(fit.ratings[0])).toBe(true);
    expect(fit.ratings[0]).toBeGreaterThan(fit.ratings[1]!);
    expect(
      mleExists(
        matrix([
          [0, 1],
          [0.5, 0],
        ]),
      ),
    ).toBe(true);
  });
});
