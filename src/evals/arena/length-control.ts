import { RATING_BASE, RATING_SCALE } from "./bradley-terry.js";
import { LOSS, MISSING, type PairOutcomes, TIE, WIN } from "./outcomes.js";

// The length-controlled fit (issue 14 §2): a logistic Bradley-Terry model with the answers' length
// difference as a covariate, P(i beats j) = sigmoid(b_i - b_j + g * d_ij), where
// d_ij = (len_i - len_j) / (len_i + len_j) lies in [-1, 1]. A tie is half a win to each side.
// g > 0 means the judge prefers longer answers whatever their system; the b_i are the ratings with
// that preference taken out. Fitted by Newton's method; Wald intervals from the observed information.

export interface LengthControlledFit {
  /** Ratings with length held equal, on the readable scale (mean 1000). */
  ratings: number[];
  /** 95% Wald intervals of the ratings. */
  cis: [number, number][];
  /** g: the log-odds of winning gained by the longer answer at d = 1 (the other one empty). */
  coefficient: number;
  coefficient_ci: [number, number];
  /** Comparisons the fit used (pairs x questions with both lengths and an outcome). */
  comparisons: number;
  iterations: number;
  converged: boolean;
}

/** The normalized length difference of two answers; 0 when both are empty. */
export function lengthDifference(lengthA: number, lengthB: number): number {
  const sum = lengthA + lengthB;
  return sum === 0 ? 0 : (lengthA - lengthB) / sum;
}

const Z95 = 1.959963984540054;
/** A tiny ridge keeps the Hessian invertible when someone wins every game. */
const RIDGE = 1e-6;

export function fitLengthControlled(
  count: number,
  pairs: readonly PairOutcomes[],
  lengths: readonly Float64Array[],
): LengthControlledFit {
  // Rows: first, second, outcome for the first (1, 0.5, 0), covariate.
  const rowsA: number[] = [];
  const rowsB: number[] = [];
  const ys: number[] = [];
  const xs: number[] = [];
  for (const { a, b, outcomes } of pairs) {
    const la = lengths[a] as Float64Array;
    const lb = lengths[b] as Float64Array;
    for (let q = 0; q < outcomes.length; q++) {
      const o = outcomes[q];
      if (o === MISSING || Number.isNaN(la[q]) || Number.isNaN(lb[q])) continue;
      rowsA.push(a);
      rowsB.push(b);
      ys.push(o === WIN ? 1 : o === TIE ? 0.5 : o === LOSS ? 0 : 0.5);
      xs.push(lengthDifference(la[q]!, lb[q]!));
    }
  }
  // Parameters: b_1 .. b_{K-1} (b_0 = 0 fixes the scale's origin), then g.
  const size = count; // (count - 1) ratings + 1 coefficient
  const theta = new Float64Array(size);
  const strength = (i: number) => (i === 0 ? 0 : theta[i - 1]!);
  let iterations = 0;
  let converged = false;
  let hessian: Float64Array[] = [];
  for (; iterations < 100; iterations++) {
    const gradient = new Float64Array(size);
    hessian = Array.from({ length: size }, () => new Float64Array(size));
    for (let r = 0; r < ys.length; r++) {
      const a = rowsA[r]!;
      const b = rowsB[r]!;
      const x = xs[r]!;
      const eta = strength(a) - strength(b) + theta[size - 1]! * x;
      const p = 1 / (1 + Math.exp(-eta));
      const residual = ys[r]! - p;
      const weight = p * (1 - p);
      // d eta / d theta: +1 at a, -1 at b (unless it is contestant 0), x at g.
      const ia = a - 1;
      const ib = b - 1;
      const ig = size - 1;
      if (ia >= 0) gradient[ia]! += residual;
      if (ib >= 0) gradient[ib]! -= residual;
      gradient[ig]! += residual * x;
      const add = (i: number, j: number, v: number) => {
        hessian[i]![j]! += v;
      };
      if (ia >= 0) {
        add(ia, ia, weight);
        add(ia, ig, weight * x);
        add(ig, ia, weight * x);
        if (ib >= 0) {
          add(ia, ib, -weight);
          add(ib, ia, -weight);
        }
      }
      if (ib >= 0) {
        add(ib, ib, weight);
        add(ib, ig, -weight * x);
        add(ig, ib, -weight * x);
      }
      add(ig, ig, weight * x * x);
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
    if (largest < 1e-9) {
      converged = true;
      iterations++;
      break;
    }
  }
  const covariance = invert(hessian);
  const perLog = RATING_SCALE / Math.LN10;
  const strengths = Array.from({ length: count }, (_, i) => strength(i));
  const mean = strengths.reduce((s, v) => s + v, 0) / count;
  const ratings = strengths.map((s) => RATING_BASE + perLog * (s - mean));
  // Var(b_i - mean b) through its contrast vector over b_1..b_{K-1}.
  const cis = strengths.map((_, i): [number, number] => {
    const contrast = new Float64Array(size);
    for (let k = 1; k < count; k++) contrast[k - 1] = (k === i ? 1 : 0) - 1 / count;
    let variance = 0;
    for (let u = 0; u < size; u++) {
      for (let v = 0; v < size; v++) variance += contrast[u]! * covariance[u]![v]! * contrast[v]!;
    }
    const half = Z95 * Math.sqrt(Math.max(variance, 0)) * perLog;
    return [ratings[i]! - half, ratings[i]! + half];
  });
  const g = theta[size - 1]!;
  const gHalf = Z95 * Math.sqrt(Math.max(covariance[size - 1]![size - 1]!, 0));
  return {
    ratings,
    cis,
    coefficient: g,
    coefficient_ci: [g - gHalf, g + gHalf],
    comparisons: ys.length,
    iterations,
    converged,
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

/** The inverse of a small matrix, column by column. */
export function invert(matrix: readonly Float64Array[]): Float64Array[] {
  const n = matrix.length;
  const columns = Array.from({ length: n }, (_, j) => {
    const unit = new Float64Array(n);
    unit[j] = 1;
    return solve(matrix, unit);
  });
  return Array.from({ length: n }, (_, i) => Float64Array.from(columns, (column) => column[i]!));
}
