import { describe, expect, it } from "vitest";
import { fitBradleyTerry } from "./bradley-terry.js";
import { fitLengthControlled, lengthDifference } from "./length-control.js";
import { halfTieWins, LOSS, type PairOutcomes, tallyOutcomes, WIN } from "./outcomes.js";
import { seededRandom } from "./prng.js";

describe("fitLengthControlled", () => {
  it("separates a judge's taste for length from the systems' quality", () => {
    // Two equally good systems; "verbose" writes three times as long; the judge's log-odds grow by
    // g = 2 per unit of normalized length difference. A third, better, system of the same length.
    const random = seededRandom(3);
    const n = 4000;
    const quality = [0, 0, 0.8];
    const meanLength = [300, 100, 100];
    const lengths = meanLength.map((m) =>
      Float64Array.from({ length: n }, () => m * (0.8 + 0.4 * random())),
    );
    const pairs: PairOutcomes[] = [];
    for (let a = 0; a < 3; a++) {
      for (let b = a + 1; b < 3; b++) {
        const outcomes = new Int8Array(n);
        for (let q = 0; q < n; q++) {
          const x = lengthDifference(lengths[a]![q]!, lengths[b]![q]!);
          const p = 1 / (1 + Math.exp(-(quality[a]! - quality[b]! + 2 * x)));
          outcomes[q] = random() < p ? WIN : LOSS;
        }
        pairs.push({ a, b, outcomes });
      }
    }
    const raw = fitBradleyTerry(
      halfTieWins(
        3,
        pairs.map(({ a, b, outcomes }) => ({ a, b, tally: tallyOutcomes(outcomes) })),
      ),
    );
    const fit = fitLengthControlled(3, pairs, lengths);
    expect(fit.converged).toBe(true);
    // Raw ratings credit "verbose" for its length; controlled ones put it level with "plain".
    expect(raw.ratings[0]! - raw.ratings[1]!).toBeGreaterThan(100);
    expect(Math.abs(fit.ratings[0]! - fit.ratings[1]!)).toBeLessThan(40);
    expect(fit.coefficient_ci[0]).toBeLessThan(2);
    expect(fit.coefficient_ci[1]).toBeGreaterThan(2);
    // The better system stays ahead by about 0.8 logits = 139 points.
    const gap = fit.ratings[2]! - fit.ratings[1]!;
    expect(gap).toBeGreaterThan(139 - 40);
    expect(gap).toBeLessThan(139 + 40);
    expect(fit.cis[2]![0]).toBeLessThan(fit.ratings[2]!);
  });

  it("finds no length effect when lengths do not matter", () => {
    const random = seededRandom(9);
    const n = 2000;
    const lengths = [0, 1].map(() => Float64Array.from({ length: n }, () => 50 + 100 * random()));
    const outcomes = Int8Array.from({ length: n }, () => (random() < 0.5 ? WIN : LOSS));
    const fit = fitLengthControlled(2, [{ a: 0, b: 1, outcomes }], lengths);
    expect(fit.coefficient_ci[0]).toBeLessThan(0);
    expect(fit.coefficient_ci[1]).toBeGreaterThan(0);
  });
});
