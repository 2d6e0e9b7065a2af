// Bradley-Terry ratings by maximum likelihood: P(i beats j) = p_i / (p_i + p_j). Fitted with
// Hunter's (2004) MM iteration, p_i <- W_i / sum_j n_ij / (p_i + p_j), which increases the
// likelihood at every step and converges whenever the MLE exists.

/** The readable scale: 1000 + 400 log10(p_i / geometric mean of p), so 400 points = 10:1 odds. */
export const RATING_BASE = 1000;
export const RATING_SCALE = 400;

export interface BradleyTerryFit {
  /** Strengths normalized to a geometric mean of 1. */
  strengths: Float64Array;
  /** On the readable scale (mean 1000). */
  ratings: number[];
  iterations: number;
  /**
   * True when the maximum-likelihood estimate does not exist (someone won or lost every game, or
   * the comparison graph is not strongly connected) and a virtual tie per pair was added.
   */
  regularized: boolean;
}

export interface BradleyTerryOptions {
  /** Virtual games added to each pair, split evenly (a prior); default 0, or 0.5 when needed. */
  prior?: number;
  tolerance?: number;
  maxIterations?: number;
}

/**
 * True when every contestant can reach every other along "has beaten" edges (ties beat both
 * ways): the condition for the Bradley-Terry MLE to exist (Ford 1957).
 */
export function mleExists(wins: readonly Float64Array[]): boolean {
  const count = wins.length;
  if (count <= 1) return true;
  const reach = (forward: boolean): boolean => {
    const seen = new Uint8Array(count);
    const stack = [0];
    seen[0] = 1;
    while (stack.length > 0) {
      const i = stack.pop() as number;
      for (let j = 0; j < count; j++) {
        const w = forward ? (wins[i] as Float64Array)[j] : (wins[j] as Float64Array)[i];
        if (!seen[j] && (w as number) > 0) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    return seen.every((s) => s === 1);
  };
  return reach(true) && reach(false);
}

/** `wins[i][j]`: how often i beat j (ties counted as half to each side). */
export function fitBradleyTerry(
  wins: readonly Float64Array[],
  options: BradleyTerryOptions = {},
): BradleyTerryFit {
  const count = wins.length;
  const regularized = options.prior === undefined && !mleExists(wins);
  const prior = options.prior ?? (regularized ? 0.5 : 0);
  const tolerance = options.tolerance ?? 1e-10;
  const maxIterations = options.maxIterations ?? 10_000;

  const w = wins.map((row, i) =>
    Float64Array.from(row, (value, j) => (i === j ? 0 : value + prior / 2)),
  );
  const total = new Float64Array(count);
  for (let i = 0; i < count; i++) for (let j = 0; j < count; j++) total[i]! += w[i]![j]!;

  let p = new Float64Array(count).fill(1);
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    const next = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      let denominator = 0;
      for (let j = 0; j < count; j++) {
        if (i === j) continue;
        const games = w[i]![j]! + w[j]![i]!;
        if (games > 0) denominator += games / (p[i]! + p[j]!);
      }
      next[i] = denominator > 0 ? total[i]! / denominator : p[i]!;
    }
    normalize(next);
    let change = 0;
    for (let i = 0; i < count; i++) change = Math.max(change, Math.abs(Math.log(next[i]! / p[i]!)));
    p = next;
    if (change < tolerance) {
      iterations++;
      break;
    }
  }
  return { strengths: p, ratings: ratingsOf(p), iterations, regularized };
}

/** Scales strengths to a geometric mean of 1 (the likelihood does not see the scale). */
function normalize(p: Float64Array): void {
  let logSum = 0;
  let positive = 0;
  for (const value of p) {
    if (value > 0) {
      logSum += Math.log(value);
      positive++;
    }
  }
  const scale = positive > 0 ? Math.exp(logSum / positive) : 1;
  for (let i = 0; i < p.length; i++) p[i] = p[i]! / scale;
}

/** Strengths on the readable scale. */
export function ratingsOf(strengths: Float64Array): number[] {
  return Array.from(strengths, (p) => RATING_BASE + RATING_SCALE * Math.log10(p));
}

/** P(i beats j) from two ratings on the readable scale. */
export function expectedScore(ratingI: number, ratingJ: number): number {
  return 1 / (1 + 10 ** ((ratingJ - ratingI) / RATING_SCALE));
}
