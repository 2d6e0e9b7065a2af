import { RATING_BASE, RATING_SCALE } from "./bradley-terry.js";
import { LOSS, MISSING, type PairOutcomes, TIE, WIN } from "./outcomes.js";

// The length-controlled fit (issue 14 §2): a logistic Bradley-Terry model with the answers' length
// difference as a covariate, P(i beats j) = sigmoid(b_i - b_j + g * d_ij), where
// d_ij = (len_i - len_j) / (len_i + len_j) lies in [-1, 1]. A tie is half a win to each side.
// g > 0 means the judge prefers longer answers whatever their system; the b_i are the ratings with
// that preference taken out. Fitted by Newton's method; the intervals come from the same bootstrap
// over questions as the raw ratings (bootstrap.ts refits with each round's question counts).

export interface LengthControlledFit {
  /** Ratings with length held equal, on the readable scale (mean 1000). */
  ratings: number[];
  /** g: the log-odds of winning gained by the longer answer at d = 1 (the other one empty). */
  coefficient: number;
  /** Comparisons the fit used (pairs x questions with both lengths and an outcome). */
  comparisons: number;
  iterations: number;
  converged: boolean;
  /** The fitted parameters (b_1 .. b_{K-1}, g): a bootstrap round starts from them. */
  theta: Float64Array;
}

/**
 * One pair's comparisons, one slot per question (dense, so a bootstrap round reads its question
 * counts in order): the outcome for `a` and the covariate; `y` is NaN where there is none.
 */
export interface LengthPairRows {
  a: number;
  b: number;
  /** 1 win, 0.5 tie, 0 loss (for a); NaN: not compared. */
  y: Float64Array;
  x: Float64Array;
}

export interface LengthRows {
  count: number;
  pairs: LengthPairRows[];
  comparisons: number;
}

/** The normalized length difference of two answers; 0 when both are empty. */
export function lengthDifference(lengthA: number, lengthB: number): number {
  const sum = lengthA + lengthB;
  return sum === 0 ? 0 : (lengthA - lengthB) / sum;
}

/** A tiny ridge keeps the Hessian invertible when someone wins every game. */
const RIDGE = 1e-6;

/** The comparisons the fit can use: both answers have a length and the pair has an outcome. */
export function lengthRows(
  count: number,
  pairs: readonly PairOutcomes[],
  lengths: readonly Float64Array[],
): LengthRows {
  let comparisons = 0;
  const rows = pairs.map(({ a, b, outcomes }): LengthPairRows => {
    const la = lengths[a] as Float64Array;
    const lb = lengths[b] as Float64Array;
    const y = new Float64Array(outcomes.length).fill(Number.NaN);
    const x = new Float64Array(outcomes.length);
    for (let q = 0; q < outcomes.length; q++) {
      const o = outcomes[q];
      if (o === MISSING || Number.isNaN(la[q]) || Number.isNaN(lb[q])) continue;
      y[q] = o === WIN ? 1 : o === TIE ? 0.5 : o === LOSS ? 0 : 0.5;
      x[q] = lengthDifference(la[q]!, lb[q]!);
      comparisons++;
    }
    return { a, b, y, x };
  });
  return { count, pairs: rows, comparisons };
}

/**
 * Newton's method on the (weighted) rows. Parameters: b_1 .. b_{K-1} (b_0 = 0 fixes the origin),
 * then g. The rating part of the Hessian only depends on the pair, so each pair's rows are summed
 * into five numbers and the K x K system is built from those sums. `weights[q]` counts question q
 * that many times (a bootstrap round); `start` warm-starts (a round begins at the full fit).
 */
export function fitLengthRows(
  rows: LengthRows,
  options: {
    weights?: Uint32Array;
    start?: Float64Array;
    maxIterations?: number;
    /** Stop once no step is larger (log-odds); Newton's error is then about its square. */
    tolerance?: number;
  } = {},
): { theta: Float64Array; iterations: number; converged: boolean } {
  const { count, pairs } = rows;
  const size = count;
  const ig = size - 1;
  const theta = options.start ? Float64Array.from(options.start) : new Float64Array(size);
  const weights = options.weights;
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-9;
  const gradient = new Float64Array(size);
  const hessian = Array.from({ length: size }, () => new Float64Array(size));
  let iterations = 0;
  let converged = false;
  for (; iterations < maxIterations; iterations++) {
    gradient.fill(0);
    for (const row of hessian) row.fill(0);
    for (const { a, b, y, x } of pairs) {
      const base = (a === 0 ? 0 : theta[a - 1]!) - (b === 0 ? 0 : theta[b - 1]!);
      const g = theta[ig]!;
      let sr = 0; // sum of residuals
      let srx = 0; // residual * x
      let sw = 0; // p (1 - p)
      let swx = 0;
      let swxx = 0;
      for (let q = 0; q < y.length; q++) {
        const w = weights ? weights[q]! : 1;
        const yq = y[q]!;
        // NaN !== NaN: a question this pair was not compared on is skipped with the zero weights.
        if (w === 0 || yq !== yq) continue;
        const xr = x[q]!;
        const p = 1 / (1 + Math.exp(-(base + g * xr)));
        const residual = w * (yq - p);
        const weight = w * p * (1 - p);
        sr += residual;
        srx += residual * xr;
        sw += weight;
        swx += weight * xr;
        swxx += weight * xr * xr;
      }
      const ia = a - 1;
      const ib = b - 1;
      if (ia >= 0) {
        gradient[ia]! += sr;
        hessian[ia]![ia]! += sw;
        hessian[ia]![ig]! += swx;
        hessian[ig]![ia]! += swx;
        if (ib >= 0) {
          hessian[ia]![ib]! -= sw;
          hessian[ib]![ia]! -= sw;
        }
      }
      if (ib >= 0) {
        gradient[ib]! -= sr;
        hessian[ib]![ib]! += sw;
        hessian[ib]![ig]! -= swx;
        hessian[ig]![ib]! -= swx;
      }
      gradient[ig]! += srx;
      hessian[ig]![ig]! += swxx;
    }
    for (let i = 0; i < size; i++) {
      hessian[i]![i]! += RIDGE;
      gradient[i]! -= RIDGE * theta[i]!;
    }
    const step = solve(hessian, gradient);
    let largest = 0;
    for (let i = 0; i < size; i++) {
      // Damped: a logistic step beyond a few log-odds overshoots.
      const s = Math.max(-5, Math.min(5, step[i]!));
      theta[i]! += s;
      largest = Math.max(largest, Math.abs(s));
    }
    if (largest < tolerance) {
      converged = true;
      iterations++;
      break;
    }
  }
  return { theta, iterations, converged };
}

/** The ratings (readable scale, mean 1000) of fitted parameters. */
export function lengthControlledRatings(theta: Float64Array, count: number): number[] {
  const perLog = RATING_SCALE / Math.LN10;
  const strengths = Array.from({ length: count }, (_, i) => (i === 0 ? 0 : theta[i - 1]!));
  const mean = strengths.reduce((s, v) => s + v, 0) / count;
  return strengths.map((s) => RATING_BASE + perLog * (s - mean));
}

export function fitLengthControlled(
  count: number,
  pairs: readonly PairOutcomes[],
  lengths: readonly Float64Array[],
): LengthControlledFit {
  const rows = lengthRows(count, pairs, lengths);
  const fit = fitLengthRows(rows);
  return {
    ratings: lengthControlledRatings(fit.theta, count),
    coefficient: fit.theta[count - 1]!,
    comparisons: rows.comparisons,
    iterations: fit.iterations,
    converged: fit.converged,
    theta: fit.theta,
  };
}

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small and symmetric). */
export function solve(matrix: readonly Float64Array[], vector: Float64Array): Float64Array {
  const n = vector.length;
  const a = matrix.map((row, i) => {
    const extended = new Float64Array(n + 1);
    extended.set(row);
    extended[n] = vector[i]!;
    return extended;
  });
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    }
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const head = a[col]!;
    const lead = head[col]!;
    if (Math.abs(lead) < 1e-300) continue;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const row = a[r]!;
      const factor = row[col]! / lead;
      if (factor === 0) continue;
      for (let c = col; c <= n; c++) row[c]! -= factor * head[c]!;
    }
  }
  return Float64Array.from({ length: n }, (_, i) => {
    const lead = a[i]![i]!;
    return Math.abs(lead) < 1e-300 ? 0 : a[i]![n]! / lead;
  });
}
