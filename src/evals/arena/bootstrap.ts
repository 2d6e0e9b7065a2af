import { fitBradleyTerry } from "./bradley-terry.js";
import { halfTieWins, type PairOutcomes, tallyOutcomes } from "./outcomes.js";
import { seededRandom } from "./prng.js";

// The bootstrap over questions: each round draws as many questions as there are, with
// replacement, and refits. Every pair sees the same draw, so a question's outcomes (and a
// contestant's scores) stay together, as they are correlated.

export const BOOTSTRAP_DEFAULTS = { rounds: 1000, minRounds: 200, seed: 42 } as const;

export interface BootstrapInput {
  count: number;
  questions: number;
  pairs: readonly PairOutcomes[];
  /** Per contestant, per question (NaN = missing): paired score differences are resampled too. */
  scores?: readonly Float64Array[];
  rounds: number;
  seed: number;
}

export interface BootstrapDraws {
  /** Per contestant: its rating in every round. */
  ratings: Float64Array[];
  /** Per pair (aligned with `pairs`): the mean paired score difference a - b in every round. */
  differences?: Float64Array[];
}

/** The question counts of one bootstrap round: how often each question was drawn. */
export function drawWeights(questions: number, random: () => number, into: Uint32Array): void {
  into.fill(0);
  for (let n = 0; n < questions; n++) into[Math.floor(random() * questions)]! += 1;
}

export function bootstrapRatings(input: BootstrapInput): BootstrapDraws {
  const { count, questions, pairs, scores, rounds } = input;
  const random = seededRandom(input.seed);
  const weights = new Uint32Array(questions);
  const ratings = Array.from({ length: count }, () => new Float64Array(rounds));
  const differences = scores ? pairs.map(() => new Float64Array(rounds)) : undefined;
  for (let round = 0; round < rounds; round++) {
    drawWeights(questions, random, weights);
    const tallies = pairs.map(({ a, b, outcomes }) => ({
      a,
      b,
      tally: tallyOutcomes(outcomes, weights),
    }));
    const fit = fitBradleyTerry(halfTieWins(count, tallies));
    for (let i = 0; i < count; i++) ratings[i]![round] = fit.ratings[i]!;
    if (scores && differences) {
      pairs.forEach(({ a, b }, p) => {
        differences[p]![round] = weightedMeanDifference(scores[a]!, scores[b]!, weights);
      });
    }
  }
  return differences ? { ratings, differences } : { ratings };
}

/** Mean of a - b over questions where both are present, each counted `weights[q]` times. */
export function weightedMeanDifference(
  a: Float64Array,
  b: Float64Array,
  weights?: Uint32Array,
): number {
  let sum = 0;
  let n = 0;
  for (let q = 0; q < a.length; q++) {
    const w = weights ? weights[q]! : 1;
    if (w === 0) continue;
    const d = a[q]! - b[q]!;
    if (Number.isNaN(d)) continue;
    sum += w * d;
    n += w;
  }
  return n === 0 ? Number.NaN : sum / n;
}

/** The p-quantile of the values (linear interpolation between order statistics). */
export function quantile(values: Float64Array, p: number): number {
  const sorted = Float64Array.from(values)
    .filter((v) => !Number.isNaN(v))
    .sort();
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * p;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

/** The 95% percentile interval. */
export function percentileInterval(values: Float64Array): [number, number] {
  return [quantile(values, 0.025), quantile(values, 0.975)];
}
