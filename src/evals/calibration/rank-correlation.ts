// Rank correlations between judge and human scores, both corrected for ties (scores on a 1-10 or
// 1-5 scale tie constantly). O(n log n), so 100,000 items take milliseconds.

import { pairedLength } from "./agreement.js";

/** Average ranks (1-based; tied values share the mean of their ranks). */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const { ranks: dense, distinct } = denseRanks(values);
  // Counting by distinct value: no comparison sort, O(n + k).
  const counts = new Float64Array(distinct + 1);
  for (let i = 0; i < dense.length; i++)
    counts[dense[i] as number] = (counts[dense[i] as number] as number) + 1;
  const average = new Float64Array(distinct + 1);
  let below = 0;
  for (let r = 1; r <= distinct; r++) {
    const c = counts[r] as number;
    // Positions below+1 .. below+c share their mean rank.
    average[r] = below + (c + 1) / 2;
    below += c;
  }
  const ranks = new Float64Array(dense.length);
  for (let i = 0; i < dense.length; i++) ranks[i] = average[dense[i] as number] as number;
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
  const { ranks: xRank, distinct: xSize } = denseRanks(x);
  const { ranks: yRank, distinct: ySize } = denseRanks(y);
  if (xSize < 2 || ySize < 2) return null;
  // Order by (x, y): stable counting sorts by y, then by x (LSD radix on the dense ranks).
  const order = countingOrder(xRank, xSize, countingOrder(yRank, ySize));

  const tree = new Float64Array(ySize + 1);
  let discordant = 0;
  // Walk groups of equal x; each item is discordant with the earlier groups' items of larger y.
  for (let i = 0; i < n;) {
    let k = i;
    const group = xRank[order[i] as number] as number;
    while (k < n && xRank[order[k] as number] === group) {
      let atMost = 0; // earlier items with y ≤ this one's: a prefix sum of the tree
      for (let idx = yRank[order[k] as number] as number; idx > 0; idx -= idx & -idx) {
        atMost += tree[idx] as number;
      }
      discordant += i - atMost;
      k++;
    }
    for (; i < k; i++) {
      for (let idx = yRank[order[i] as number] as number; idx <= ySize; idx += idx & -idx) {
        tree[idx] = (tree[idx] as number) + 1;
      }
    }
  }

  let tiedX = 0;
  let tiedBoth = 0;
  let runX = 1;
  let runXY = 1;
  for (let i = 1; i <= n; i++) {
    const a = order[i] as number;
    const b = order[i - 1] as number;
    const sameX = i < n && xRank[a] === xRank[b];
    if (sameX) runX++;
    else {
      tiedX += (runX * (runX - 1)) / 2;
      runX = 1;
    }
    if (sameX && yRank[a] === yRank[b]) runXY++;
    else {
      tiedBoth += (runXY * (runXY - 1)) / 2;
      runXY = 1;
    }
  }
  const yCounts = new Float64Array(ySize + 1);
  for (let i = 0; i < n; i++)
    yCounts[yRank[i] as number] = (yCounts[yRank[i] as number] as number) + 1;
  let tiedY = 0;
  for (const c of yCounts) tiedY += (c * (c - 1)) / 2;

  const pairs = (n * (n - 1)) / 2;
  const concordantMinusDiscordant = pairs - tiedX - tiedY + tiedBoth - 2 * discordant;
  return concordantMinusDiscordant / Math.sqrt(pairs - tiedX) / Math.sqrt(pairs - tiedY);
}

/** Above this many distinct values, dense ranks come from a sort of all values instead of a map. */
const FEW_DISTINCT = 4_096;

/** 1-based dense ranks (equal values share a rank, no gaps) and how many distinct values. */
export function denseRanks(values: ArrayLike<number>): { ranks: Int32Array; distinct: number } {
  // Scores on a scale take few values (1-10 in tenths: at most 91): a map of them, sorted, then one
  // lookup per value costs a third of sorting 100,000 numbers. Many distinct values: the sort.
  const seen = new Map<number, number>();
  for (let i = 0; i < values.length && seen.size <= FEW_DISTINCT; i++) {
    seen.set(values[i] as number, 0);
  }
  if (seen.size <= FEW_DISTINCT) {
    const keys = Float64Array.from(seen.keys()).sort();
    for (let r = 0; r < keys.length; r++) seen.set(keys[r] as number, r + 1);
    const ranks = new Int32Array(values.length);
    for (let i = 0; i < values.length; i++) ranks[i] = seen.get(values[i] as number) as number;
    return { ranks, distinct: keys.length };
  }
  return denseRanksBySort(values);
}

/** denseRanks for many distinct values: a native numeric sort of a copy, then binary searches. */
function denseRanksBySort(values: ArrayLike<number>): { ranks: Int32Array; distinct: number } {
  const sorted = Float64Array.from(values).sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i] as number;
  }
  const ranks = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    let lo = 0;
    let hi = distinct - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) < v) lo = mid + 1;
      else hi = mid;
    }
    ranks[i] = lo + 1;
  }
  return { ranks, distinct };
}

/**
 * The indices of `input` (default 0..n-1) stably reordered by `keys` (1..k): a counting sort,
 * O(n + k).
 */
function countingOrder(keys: Int32Array, k: number, input?: Uint32Array): Uint32Array {
  const n = keys.length;
  const starts = new Uint32Array(k + 2);
  for (let i = 0; i < n; i++)
    starts[(keys[i] as number) + 1] = (starts[(keys[i] as number) + 1] as number) + 1;
  for (let r = 1; r <= k + 1; r++) starts[r] = (starts[r] as number) + (starts[r - 1] as number);
  const order = new Uint32Array(n);
  for (let p = 0; p < n; p++) {
    const i = input ? (input[p] as number) : p;
    const key = keys[i] as number;
    order[starts[key] as number] = i;
    starts[key] = (starts[key] as number) + 1;
  }
  return order;
}
