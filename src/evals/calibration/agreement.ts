// Agreement between a judge's scores and people's on the same items (seed 002 section 5.3:
// "人工與系統評分誤差在 ±1 分以內"). Pure: arrays in, numbers out.

/** Mean |judge − human|; null for no pairs. */
export function meanAbsoluteError(
  judge: ArrayLike<number>,
  human: ArrayLike<number>,
): number | null {
  const n = pairedLength(judge, human);
  if (n === 0) return null;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.abs((judge[i] as number) - (human[i] as number));
  return sum / n;
}

/** Share of pairs with |judge − human| ≤ tolerance (seed 002's ±1); null for no pairs. */
export function shareWithin(
  judge: ArrayLike<number>,
  human: ArrayLike<number>,
  tolerance = 1,
): number | null {
  const n = pairedLength(judge, human);
  if (n === 0) return null;
  let within = 0;
  // A hair of slack: 6.7 − 5.7 is 1.0000000000000009 in binary floating point.
  const limit = tolerance + 1e-9;
  for (let i = 0; i < n; i++) {
    if (Math.abs((judge[i] as number) - (human[i] as number)) <= limit) within++;
  }
  return within / n;
}

/**
 * Cohen's κ with quadratic weights on integer categories:
 *   κ_w = 1 − Σ w_ij O_ij / Σ w_ij E_ij,  w_ij = (i − j)²,  E_ij = r_i c_j / n
 * (the usual (i − j)² / (K − 1)² weights scale both sums alike, so K cancels). With two
 * categories it is plain Cohen's κ. Null when it is undefined: no pairs, or no disagreement is
 * expected (both raters constant), the 0/0 case.
 */
export function quadraticWeightedKappa(a: ArrayLike<number>, b: ArrayLike<number>): number | null {
  const n = pairedLength(a, b);
  if (n === 0) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (!Number.isInteger(x) || !Number.isInteger(y)) {
      throw new RangeError(`quadraticWeightedKappa: item ${i} is not an integer category`);
    }
    lo = Math.min(lo, x, y);
    hi = Math.max(hi, x, y);
  }
  const k = hi - lo + 1;
  const rows = new Float64Array(k);
  const cols = new Float64Array(k);
  let observed = 0;
  for (let i = 0; i < n; i++) {
    const x = (a[i] as number) - lo;
    const y = (b[i] as number) - lo;
    rows[x] = (rows[x] as number) + 1;
    cols[y] = (cols[y] as number) + 1;
    observed += (x - y) ** 2;
  }
  let expected = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++)
      expected += (i - j) ** 2 * (rows[i] as number) * (cols[j] as number);
  }
  expected /= n;
  if (expected === 0) return null;
  return 1 - observed / expected;
}

/** The most common value; ties go to the smaller one, so the choice is reproducible. */
export function mostCommon(values: ArrayLike<number>): number | null {
  const counts = new Map<number, number>();
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  let best: number | null = null;
  let bestCount = 0;
  for (const [value, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== null && value < best)) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}

/** Pass/fail agreement; "positive" is a pass. Rates are null when their denominator is 0. */
export interface Confusion {
  /** Human pass, judge pass. */
  tp: number;
  /** Human fail, judge pass. */
  fp: number;
  /** Human fail, judge fail. */
  tn: number;
  /** Human pass, judge fail. */
  fn: number;
  accuracy: number | null;
  /** TPR: of the answers people passed, the share the judge passed. */
  tpr: number | null;
  /** TNR: of the answers people failed, the share the judge failed. */
  tnr: number | null;
}

export function confusion(judge: ArrayLike<boolean>, human: ArrayLike<boolean>): Confusion {
  const n = pairedLength(judge, human);
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (let i = 0; i < n; i++) {
    if (human[i]) {
      if (judge[i]) tp++;
      else fn++;
    } else if (judge[i]) fp++;
    else tn++;
  }
  const ratio = (x: number, y: number) => (y === 0 ? null : x / y);
  return {
    tp,
    fp,
    tn,
    fn,
    accuracy: ratio(tp + tn, n),
    tpr: ratio(tp, tp + fn),
    tnr: ratio(tn, tn + fp),
  };
}

export function pairedLength(a: ArrayLike<unknown>, b: ArrayLike<unknown>): number {
  if (a.length !== b.length) {
    throw new RangeError(`paired arrays differ in length: ${a.length} and ${b.length}`);
  }
  return a.length;
}
