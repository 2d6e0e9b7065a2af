// Krippendorff's α (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"): agreement
// among any number of coders, with missing values, for a chosen level of measurement.

import { denseRanks } from "./rank-correlation.js";

export type AlphaMetric = "nominal" | "ordinal" | "interval";

/**
 * α = 1 − D_o / D_e = 1 − (n − 1) · Σ o_ck δ²_ck / Σ n_c n_k δ²_ck, from the coincidence matrix
 * o (each unit with m_u ≥ 2 values adds 1 / (m_u − 1) for every ordered pair of its values),
 * its margins n_c and n = Σ n_c. δ² is 0/1 (nominal), (c − k)² (interval), or, ordinal,
 * (Σ_{g=c..k} n_g − (n_c + n_k) / 2)², which uses only the order of the values and how often each
 * occurs. `units` holds one array per unit, a value per coder, null where a coder gave none.
 * Null when undefined: fewer than 2 pairable values, or a single value throughout (D_e = 0).
 */
export function krippendorffAlpha(
  units: readonly (readonly (number | null)[])[],
  metric: AlphaMetric,
): number | null {
  const valueSet = new Set<number>();
  for (const unit of units) for (const v of unit) if (v !== null) valueSet.add(v);
  const values = [...valueSet].sort((a, b) => a - b);
  const index = new Map(values.map((v, i) => [v, i]));
  const k = values.length;
  const o = new Float64Array(k * k);
  const present: number[] = [];
  for (const unit of units) {
    present.length = 0;
    for (const v of unit) if (v !== null) present.push(index.get(v) as number);
    const m = present.length;
    if (m < 2) continue; // a unit coded once is not pairable
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) {
        if (i === j) continue;
        const cell = (present[i] as number) * k + (present[j] as number);
        o[cell] = (o[cell] as number) + 1 / (m - 1);
      }
    }
  }
  return alphaOfCoincidences(o, values, metric);
}

/**
 * α for two coders who coded every item (a judge and a person): the same formula, with the
 * coincidence matrix built in one pass, for large runs.
 */
export function pairedAlpha(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  metric: AlphaMetric,
): number | null {
  const n = a.length;
  if (b.length !== n) throw new RangeError("paired arrays differ in length");
  const both = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    both[i] = a[i] as number;
    both[n + i] = b[i] as number;
  }
  const { ranks, distinct: k } = denseRanks(both);
  const values = new Array<number>(k);
  for (let i = 0; i < 2 * n; i++) values[(ranks[i] as number) - 1] = both[i] as number;
  const o = new Float64Array(k * k);
  for (let i = 0; i < n; i++) {
    const x = (ranks[i] as number) - 1;
    const y = (ranks[n + i] as number) - 1;
    o[x * k + y] = (o[x * k + y] as number) + 1;
    o[y * k + x] = (o[y * k + x] as number) + 1;
  }
  return alphaOfCoincidences(o, values, metric);
}

function alphaOfCoincidences(
  o: Float64Array,
  values: readonly number[],
  metric: AlphaMetric,
): number | null {
  const k = values.length;
  const margins = new Float64Array(k);
  let n = 0;
  for (let c = 0; c < k; c++) {
    for (let j = 0; j < k; j++) margins[c] = (margins[c] as number) + (o[c * k + j] as number);
    n += margins[c] as number;
  }
  if (n < 2) return null;
  // Cumulative margins for the ordinal metric: Σ_{g ≤ c} n_g.
  const cumulative = new Float64Array(k + 1);
  for (let c = 0; c < k; c++)
    cumulative[c + 1] = (cumulative[c] as number) + (margins[c] as number);
  const delta2 = (c: number, j: number): number => {
    if (c === j) return 0;
    if (metric === "nominal") return 1;
    if (metric === "interval") return ((values[c] as number) - (values[j] as number)) ** 2;
    const lo = Math.min(c, j);
    const hi = Math.max(c, j);
    const between = (cumulative[hi + 1] as number) - (cumulative[lo] as number);
    return (between - ((margins[lo] as number) + (margins[hi] as number)) / 2) ** 2;
  };
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let j = 0; j < k; j++) {
      if (c === j) continue;
      const d = delta2(c, j);
      observed += (o[c * k + j] as number) * d;
      expected += (margins[c] as number) * (margins[j] as number) * d;
    }
  }
  if (expected === 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}
