// ROUGE-L (Lin 2004): precision, recall and F-measure from the longest common subsequence of the
// prediction's and the reference's tokens, the same tokens as SQuAD's F1 (squadTokens).

import { squadTokens } from "./squad.js";

export interface RougeL {
  /** LCS length over the prediction's token count. */
  precision: number;
  /** LCS length over the reference's token count. */
  recall: number;
  /** (1 + β²)·P·R / (R + β²·P); β = 1 by default, as in Google's rouge-score. */
  f_measure: number;
}

/**
 * Length of the longest common subsequence, by the bit-parallel algorithm of Crochemore et al.
 * (2001): one machine word covers 32 tokens of the shorter side, so a 1,000 × 1,000 comparison
 * takes some 32,000 word operations instead of a million table cells.
 */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const m = short.length;
  if (m === 0) return 0;
  const words = (m + 31) >>> 5;
  // For each distinct token of the short side, the bit set of the positions where it occurs.
  const masks = new Map<string, Uint32Array>();
  for (let i = 0; i < m; i++) {
    const token = short[i] as string;
    let mask = masks.get(token);
    if (mask === undefined) {
      mask = new Uint32Array(words);
      masks.set(token, mask);
    }
    mask[i >>> 5] = ((mask[i >>> 5] as number) | (1 << (i & 31))) >>> 0;
  }
  // V starts all ones; each row computes V' = (V + (V & M)) | (V & ~M), carrying across words.
  // Zero bits of V (among the first m) count the LCS.
  const v = new Uint32Array(words).fill(0xffffffff);
  for (const token of long) {
    const mask = masks.get(token);
    if (mask === undefined) continue; // V & M = 0: the row leaves V unchanged.
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const vw = v[w] as number;
      const mw = mask[w] as number;
      const sum = vw + ((vw & mw) >>> 0) + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = ((sum >>> 0) | (vw & ~mw)) >>> 0;
    }
  }
  let ones = 0;
  for (let w = 0; w < words; w++) {
    let x = v[w] as number;
    if (w === words - 1 && (m & 31) !== 0) x &= (1 << (m & 31)) - 1;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    ones += (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return m - ones;
}

/** ROUGE-L of a prediction against a reference, over squadTokens. */
export function rougeL(prediction: string, reference: string, beta = 1): RougeL {
  return rougeLOfTokens(squadTokens(prediction), squadTokens(reference), beta);
}

/**
 * ROUGE-L reads at most this many tokens of each side (about 60 KB of English): the LCS costs
 * n × m / 32 steps, and the server accepts answers and ground truths of 200,000 characters.
 */
export const MAX_ROUGE_TOKENS = 10_000;

export function rougeLOfTokens(
  predictionTokens: readonly string[],
  referenceTokens: readonly string[],
  beta = 1,
): RougeL {
  const prediction = predictionTokens.slice(0, MAX_ROUGE_TOKENS);
  const reference = referenceTokens.slice(0, MAX_ROUGE_TOKENS);
  if (prediction.length === 0 || reference.length === 0) {
    return { precision: 0, recall: 0, f_measure: 0 };
  }
  const lcs = lcsLength(prediction, reference);
  if (lcs === 0) return { precision: 0, recall: 0, f_measure: 0 };
  const precision = lcs / prediction.length;
  const recall = lcs / reference.length;
  const b2 = beta * beta;
  return {
    precision,
    recall,
    f_measure: ((1 + b2) * precision * recall) / (recall + b2 * precision),
  };
}
