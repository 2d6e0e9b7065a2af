import { describe, expect, it } from "vitest";
import { BOOTSTRAP_DEFAULTS } from "./bootstrap.js";
import { LOSS, MISSING, type PairOutcomes, scoreOutcomes, TIE, WIN } from "./outcomes.js";
import { seededRandom } from "./prng.js";
import { computeStandings, excludesZero } from "./standings.js";

/** Three contestants on n questions with the given per-pair outcome generator. */
function synthetic(n: number, seed: number) {
  const random = seededRandom(seed);
  const strengths = [1.2, 0.4, 0];
  const names = ["strong", "middle", "weak"];
  const pairs: PairOutcomes[] = [];
  for (let a = 0; a < 3; a++) {
    for (let b = a + 1; b < 3; b++) {
      const outcomes = new Int8Array(n);
      const p = 1 / (1 + Math.exp(strengths[b]! - strengths[a]!));
      for (let q = 0; q < n; q++) {
        const u = random();
        outcomes[q] = u < 0.1 ? TIE : u < 0.1 + 0.9 * p ? WIN : LOSS;
      }
      pairs.push({ a, b, outcomes });
    }
  }
  const lengths = names.map(() => Float64Array.from({ length: n }, () => 100 + random() * 50));
  return { names, pairs, lengths };
}

describe("computeStandings", () => {
  it("counts the matrix from each side, win rates with ties as half, and ranks by rating", () => {
    const outcomes = Int8Array.from([WIN, WIN, TIE, LOSS, MISSING]);
    const lengths = [Float64Array.from([1, 2, 3, 4, 5]), Float64Array.from([1, 2, 3, 4, 5])];
    const standings = computeStandings({
      names: ["x", "y"],
      pairs: [{ a: 0, b: 1, outcomes }],
      lengths,
      rounds: 200,
    });
    expect(standings.matrix.cells).toEqual([
      [null, { wins: 2, ties: 1, losses: 1 }],
      [{ wins: 1, ties: 1, losses: 2 }, null],
    ]);
    expect(standings.contestants.map((c) => [c.name, c.rank, c.win_rate])).toEqual([
      ["x", 1, 0.625],
      ["y", 2, 0.375],
    ]);
    expect(standings.pairs[0]).toMatchObject({ wins: 2, ties: 1, losses: 1, missing: 1 });
    // Four questions cannot separate them.
    expect(standings.not_distinguishable).toEqual([["x", "y"]]);
  });

  it("prints the same intervals under a seed, and other intervals under another seed", () => {
    const input = synthetic(300, 7);
    const first = computeStandings({ ...input, seed: 11 });
    const again = computeStandings({ ...input, seed: 11 });
    const other = computeStandings({ ...input, seed: 12 });
    expect(again.contestants).toEqual(first.contestants);
    expect(other.contestants.map((c) => c.ci)).not.toEqual(first.contestants.map((c) => c.ci));
    expect(first.bootstrap).toEqual({ rounds: BOOTSTRAP_DEFAULTS.rounds, seed: 11 });
    for (const c of first.contestants) {
      expect(c.ci[0]).toBeLessThanOrEqual(c.rating);
      expect(c.ci[1]).toBeGreaterThanOrEqual(c.rating);
    }
    expect(first.contestants.map((c) => c.name)).toEqual(["strong", "middle", "weak"]);
    // 300 questions separate strengths 1.2 and 0 on the logit scale.
    expect(first.not_distinguishable).not.toContainEqual(["strong", "weak"]);
  });

  it("reports paired score differences with a bootstrap interval in score-based comparisons", () => {
    const a = Float64Array.from([0.9, 0.8, 0.7, Number.NaN, 0.6]);
    const b = Float64Array.from([0.5, 0.8, 0.6, 0.2, 0.6]);
    const outcomes = Int8Array.from([WIN, TIE, WIN, MISSING, TIE]);
    const standings = computeStandings({
      names: ["a", "b"],
      pairs: [{ a: 0, b: 1, outcomes }],
      lengths: [a.map(() => 10), b.map(() => 10)],
      scores: [a, b],
      rounds: 500,
    });
    const pair = standings.pairs[0]!;
    // (0.4 + 0 + 0.1 + 0) / 4 over the questions both have.
    expect(pair.mean_difference).toBeCloseTo(0.125, 10);
    expect(pair.difference_ci![0]).toBeGreaterThanOrEqual(0);
    expect(pair.difference_ci![1]).toBeLessThanOrEqual(0.4);
  });

  it("decides distinguishable by one rule: the printed paired-difference interval excludes 0", () => {
    // The case: b scores a little higher than a on every question, within the tie
    // tolerance, so every outcome is a tie and the rating intervals overlap; the paired
    // difference is clearly below 0. Overlapping ratings used to print "no" beside it.
    const random = seededRandom(3);
    const n = 40;
    const b = Float64Array.from({ length: n }, () => 0.4 + random() * 0.4);
    const a = b.map((x) => x - 0.01 - random() * 0.16);
    const standings = computeStandings({
      names: ["a", "b"],
      pairs: [{ a: 0, b: 1, outcomes: scoreOutcomes(a, b, 0.2) }],
      lengths: [a.map(() => 10), b.map(() => 10)],
      scores: [a, b],
      rounds: 500,
    });
    const [x, y] = standings.contestants;
    expect(x!.ci[0] <= y!.ci[1] && y!.ci[0] <= x!.ci[1]).toBe(true);
    const pair = standings.pairs[0]!;
    expect(pair.difference_of).toBe("score");
    expect(pair.difference_ci![1]).toBeLessThan(0);
    expect(pair.distinguishable).toBe(true);
    expect(standings.not_distinguishable).toEqual([]);
  });

  it("gives the pairwise judge's pairs the same rule over outcomes (win 1, tie 0, loss -1)", () => {
    const input = synthetic(300, 7);
    const standings = computeStandings({ ...input, rounds: 300 });
    for (const pair of standings.pairs) {
      expect(pair.difference_of).toBe("outcome");
      expect(pair.distinguishable).toBe(excludesZero(pair.difference_ci));
      expect(pair.difference_ci![0]).toBeLessThanOrEqual(pair.mean_difference!);
      expect(pair.difference_ci![1]).toBeGreaterThanOrEqual(pair.mean_difference!);
    }
    const strongWeak = standings.pairs.find((p) => p.a === "strong" && p.b === "weak")!;
    // (wins - losses) / compared, from the strong side.
    expect(strongWeak.mean_difference).toBeCloseTo(
      (strongWeak.wins - strongWeak.losses) /
        (strongWeak.wins + strongWeak.ties + strongWeak.losses),
      4,
    );
    expect(strongWeak.distinguishable).toBe(true);
    expect(standings.not_distinguishable).toEqual(
      standings.pairs.filter((p) => !p.distinguishable).map((p) => [p.a, p.b]),
    );
  });

  it("refuses fewer than 200 bootstrap rounds", () => {
    expect(() => computeStandings({ ...synthetic(10, 1), rounds: 100 })).toThrow(/200/);
  });
});
