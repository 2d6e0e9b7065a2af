import { describe, expect, it } from "vitest";
import { fitBradleyTerry } from "./bradley-terry.js";
import { bootstrapRatings, percentileInterval } from "./bootstrap.js";
import {
  fitLengthControlled,
  fitLengthRows,
  lengthDifference,
  lengthRows,
} from "./length-control.js";
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
    expect(fit.coefficient).toBeGreaterThan(1.6);
    expect(fit.coefficient).toBeLessThan(2.4);
    // The better system stays ahead by about 0.8 logits = 139 points.
    const gap = fit.ratings[2]! - fit.ratings[1]!;
    expect(gap).toBeGreaterThan(139 - 40);
    expect(gap).toBeLessThan(139 + 40);

    // The bootstrap over questions refits every round: its intervals hold the truth and the fit.
    const draws = bootstrapRatings({
      count: 3,
      questions: n,
      pairs,
      rounds: 200,
      seed: 5,
      length: { rows: lengthRows(3, pairs, lengths), theta: fit.theta },
    });
    const [low, high] = percentileInterval(draws.lengthCoefficients!);
    expect(low).toBeLessThan(2);
    expect(high).toBeGreaterThan(2);
    expect(low).toBeLessThan(fit.coefficient);
    expect(high).toBeGreaterThan(fit.coefficient);
    const [r2low, r2high] = percentileInterval(draws.lengthRatings![2]!);
    expect(r2low).toBeLessThan(fit.ratings[2]!);
    expect(r2high).toBeGreaterThan(fit.ratings[2]!);
    // Seeded: the same draws again.
    const again = bootstrapRatings({
      count: 3,
      questions: n,
      pairs,
      rounds: 200,
      seed: 5,
      length: { rows: lengthRows(3, pairs, lengths), theta: fit.theta },
    });
    expect(Array.from(again.lengthCoefficients!)).toEqual(Array.from(draws.lengthCoefficients!));
  });

  it("a bootstrap round's loose stop (steps under 1e-2) lands where a tight fit does", () => {
    const random = seededRandom(8);
    const n = 1500;
    const lengths = [0, 1, 2].map((c) =>
      Float64Array.from({ length: n }, () => 30 + 150 * random() + 40 * c),
    );
    const pairs: PairOutcomes[] = [];
    for (let a = 0; a < 3; a++) {
      for (let b = a + 1; b < 3; b++) {
        pairs.push({
          a,
          b,
          outcomes: Int8Array.from({ length: n }, () => (random() < 0.55 ? WIN : LOSS)),
        });
      }
    }
    const rows = lengthRows(3, pairs, lengths);
    const full = fitLengthRows(rows);
    const weights = new Uint32Array(n);
    for (let q = 0; q < n; q++) weights[Math.floor(random() * n)]! += 1;
    const loose = fitLengthRows(rows, { weights, start: full.theta, tolerance: 1e-2 });
    const tight = fitLengthRows(rows, { weights, start: full.theta, tolerance: 1e-12 });
    expect(loose.iterations).toBeLessThan(tight.iterations);
    for (let i = 0; i < 3; i++)
      expect(Math.abs(loose.theta[i]! - tight.theta[i]!)).toBeLessThan(1e-4);
  });

  it("counts a question twice when its weight is 2, as a bootstrap draw does", () => {
    const random = seededRandom(4);
    const n = 300;
    const lengths = [0, 1].map(() => Float64Array.from({ length: n }, () => 20 + 200 * random()));
    const outcomes = Int8Array.from({ length: n }, () => (random() < 0.6 ? WIN : LOSS));
    const pairs: PairOutcomes[] = [{ a: 0, b: 1, outcomes }];
    // Weights 2 for the first half, 0 for the rest = the first half's rows listed twice.
    const weights = Uint32Array.from({ length: n }, (_, q) => (q < n / 2 ? 2 : 0));
    const weighted = fitLengthRows(lengthRows(2, pairs, lengths), { weights });
    const half = Array.from({ length: n / 2 }, (_, q) => q);
    const doubled = [...half, ...half];
    const explicit = fitLengthRows(
      lengthRows(
        2,
        [{ a: 0, b: 1, outcomes: Int8Array.from(doubled, (q) => outcomes[q]!) }],
        lengths.map((l) => Float64Array.from(doubled, (q) => l[q]!)),
      ),
    );
    expect(weighted.converged).toBe(true);
    for (let i = 0; i < 2; i++) expect(weighted.theta[i]).toBeCloseTo(explicit.theta[i]!, 8);
  });

  it("finds no length effect when lengths do not matter", () => {
    const random = seededRandom(9);
    const n = 2000;
    const lengths = [0, 1].map(() => Float64Array.from({ length: n }, () => 50 + 100 * random()));
    const outcomes = Int8Array.from({ length: n }, () => (random() < 0.5 ? WIN : LOSS));
    const pairs: PairOutcomes[] = [{ a: 0, b: 1, outcomes }];
    const fit = fitLengthControlled(2, pairs, lengths);
    const draws = bootstrapRatings({
      count: 2,
      questions: n,
      pairs,
      rounds: 200,
      seed: 42,
      length: { rows: lengthRows(2, pairs, lengths), theta: fit.theta },
    });
    const [low, high] = percentileInterval(draws.lengthCoefficients!);
    expect(low).toBeLessThan(0);
    expect(high).toBeGreaterThan(0);
  });
});
