// Rank correlations between judge and human scores, both corrected for ties (scores on a 1-10 or
// 1-5 scale tie constantly). O(n log n), so 100,000 items take milliseconds.

import { pairedLength } from "./agreement.js";

/** Average ranks (1-based; tied values share the mean of their ranks). */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = sortedOrder(values);
  const ranks = new Float64Array(n);
  for (let start = 0; start < n;) {
    let end = start + 1;
    const v = values[order[start] as number] as number;
    while (end < n && values[order[end] as number] === v) end++;
    // Positions start..end-1 hold ranks start+1..end: their mean.
    const rank = (start + 1 + end) / 2;
    for (let i = start; i < end; i++) ranks[order[i] as number] = rank;
    start = end;
  }
  return ranks;
}

/** Pearson's r; null when either side is constant or there are fewer than 2 pairs. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  const n = pairedLength(x, y);
  if (n < 2) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i] as number;
    my += y[i] as number;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (x[i] as number) - mx;
    const dy = (y[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/** Spearman's ρ: Pearson's r of the average ranks (the tie-corrected form). */
export function spearmanRho(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  pairedLength(x, y);
  return pearson(averageRanks(x), averageRanks(y));
}

/**
 * Kendall's τ-b = (C − D) / √((P − Tx)(P − Ty)), P = n(n−1)/2, Tx and Ty the pairs tied in x and
 * in y. Knight's algorithm, as scipy.stats.kendalltau: sort by (x, y), count discordant pairs
 * with a Fenwick tree over y's dense ranks, and C − D = P − Tx − Ty + Txy − 2D. Null when either
 * side is constant or there are fewer than 2 pairs.
 */
export function kendallTauB(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  const n = pairedLength(x, y);
  if (n < 2) return null;
  const yRank = denseRanks(y);
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort(
    (i, j) => (x[i] as number) - (x[j] as number) || (yRank[i] as number) - (yRank[j] as number),
  );

  const size = maxOf(yRank) + 1;
  const tree = new Float64Array(size + 1);
  let discordant = 0;
  // Walk groups of equal x; within a group, count earlier groups' items with a larger y.
  for (let i = 0; i < n;) {
    let k = i;
    const xi = x[order[i] as number] as number;
    while (k < n && x[order[k] as number] === xi) {
      let idx = yRank[order[k] as number] as number; // items with y ≤ this one: prefix sum
      let atMost = 0;
      while (idx > 0) {
        atMost += tree[idx] as number;
        idx -= idx & -idx;
      }
      discordant += i - atMost;
      k++;
    }
    for (; i < k; i++) {
      for (let idx = yRank[order[i] as number] as number; idx <= size; idx += idx & -idx) {
        tree[idx] = (tree[idx] as number) + 1;
      }
    }
  }

  let tiedX = 0;
  let tiedY = 0;
  let tiedBoth = 0;
  let runX = 1;
  let runXY = 1;
  for (let i = 1; i <= n; i++) {
    const sameX = i < n && x[order[i] as number] === x[order[i - 1] as number];
    const sameXY = sameX && yRank[order[i] as number] === yRank[order[i - 1] as number];
    if (sameX) runX++;
    else {
      tiedX += (runX * (runX - 1)) / 2;
      runX = 1;
    }
    if (sameXY) runXY++;
    else {
      tiedBoth += (runXY * (runXY - 1)) / 2;
      runXY = 1;
    }
  }
  const yCounts = new Float64Array(size);
  for (let i = 0; i < n; i++)
    yCounts[(yRank[i] as number) - 1] = (yCounts[(yRank[i] as number) - 1] as number) + 1;
  for (const c of yCounts) tiedY += (c * (c - 1)) / 2;

  const pairs = (n * (n - 1)) / 2;
  if (pairs === tiedX || pairs === tiedY) return null;
  const concordantMinusDiscordant = pairs - tiedX - tiedY + tiedBoth - 2 * discordant;
  return concordantMinusDiscordant / Math.sqrt(pairs - tiedX) / Math.sqrt(pairs - tiedY);
}

/** 1-based dense ranks: equal values share a rank, ranks have no gaps. */
function denseRanks(values: ArrayLike<number>): Int32Array {
  const order = sortedOrder(values);
  const ranks = new Int32Array(values.length);
  let rank = 0;
  let previous: number | undefined;
  for (const i of order) {
    const v = values[i] as number;
    if (previous === undefined || v !== previous) rank++;
    ranks[i] = rank;
    previous = v;
  }
  return ranks;
}

function sortedOrder(values: ArrayLike<number>): Uint32Array {
  const order = new Uint32Array(values.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((i, j) => (values[i] as number) - (values[j] as number));
}

function maxOf(values: Int32Array): number {
  let max = 0;
  for (const v of values) if (v > max) max = v;
  return max;
}
