// The prediction-powered pass rate (Angelopoulos et al. 2023, "PPI++" with power tuning, as
// ppi_py's ppi_mean_ci with lam=None): n items labelled by people and judged, N judged only.

/** z for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

export interface Interval {
  estimate: number;
  ci: [number, number];
}

export interface PpiEstimate extends Interval {
  /** The power-tuning weight on the judge: 0 ignores it (human mean), 1 is classic PPI. */
  lambda: number;
  /** Standard error of the estimate. */
  se: number;
  n: number;
  N: number;
}

/**
 * PPI++ mean of Y (human pass = 1) using the judge's Ŷ:
 *   λ = Cov(Y, Ŷ) / ((1 + n/N) · Var(Ŷ)), clipped to [0, 1]
 *     (Cov over the labelled items with divisor n, Var over labelled and unlabelled Ŷ with N+n−1,
 *     as ppi_py's _calc_lam_glm),
 *   θ = λ · mean(Ŷ_unlabelled) + mean(Y − λ Ŷ_labelled),
 *   se² = λ² · var(Ŷ_unlabelled) / N + var(Y − λ Ŷ_labelled) / n   (divisor-n variances),
 *   CI = θ ± z · se (the CLT interval).
 * `lambda` fixes λ instead (1 = classic PPI). Null when n < 2 or N < 1. The interval is not
 * clipped here (ppi_py does not); the calibration report clips a rate to [0, 1].
 */
export function ppiMean(args: {
  y: ArrayLike<number>;
  yhat: ArrayLike<number>;
  yhatUnlabelled: ArrayLike<number>;
  lambda?: number;
  z?: number;
}): PpiEstimate | null {
  const { y, yhat, yhatUnlabelled } = args;
  const n = y.length;
  const N = yhatUnlabelled.length;
  if (yhat.length !== n) throw new RangeError("y and yhat differ in length");
  if (n < 2 || N < 1) return null;
  const meanY = mean(y);
  const meanYhat = mean(yhat);
  const meanUnlabelled = mean(yhatUnlabelled);
  let lambda = args.lambda;
  if (lambda === undefined) {
    let cov = 0;
    for (let i = 0; i < n; i++)
      cov += ((y[i] as number) - meanY) * ((yhat[i] as number) - meanYhat);
    cov /= n;
    const all = (meanYhat * n + meanUnlabelled * N) / (n + N);
    let ss = 0;
    for (let i = 0; i < n; i++) ss += ((yhat[i] as number) - all) ** 2;
    for (let i = 0; i < N; i++) ss += ((yhatUnlabelled[i] as number) - all) ** 2;
    const variance = ss / (n + N - 1);
    // A constant judge carries no information: weight it 0 (the human mean).
    lambda = variance === 0 ? 0 : Math.min(1, Math.max(0, cov / ((1 + n / N) * variance)));
  }
  const estimate = lambda * meanUnlabelled + (meanY - lambda * meanYhat);
  const rectifierMean = meanY - lambda * meanYhat;
  let rectifierSs = 0;
  for (let i = 0; i < n; i++) {
    rectifierSs += ((y[i] as number) - lambda * (yhat[i] as number) - rectifierMean) ** 2;
  }
  let imputedSs = 0;
  for (let i = 0; i < N; i++) imputedSs += ((yhatUnlabelled[i] as number) - meanUnlabelled) ** 2;
  const se = Math.sqrt((lambda ** 2 * imputedSs) / N / N + rectifierSs / n / n);
  const z = args.z ?? Z_95;
  return { estimate, ci: [estimate - z * se, estimate + z * se], lambda, se, n, N };
}

/**
 * The Wilson score interval for a proportion (better than the normal one near 0, near 1 and for
 * small n):  (p̂ + z²/2n ± z √(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n). Null for n = 0.
 */
export function wilsonInterval(successes: number, n: number, z = Z_95): Interval | null {
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const denominator = 1 + z2 / n;
  return { estimate: p, ci: [(centre - spread) / denominator, (centre + spread) / denominator] };
}

function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i] as number;
  return sum / values.length;
}
