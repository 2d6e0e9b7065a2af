import { describe, expect, it } from "vitest";
import { lcsLength, MAX_ROUGE_TOKENS, rougeL, rougeLOfTokens } from "./rouge.js";

/** The textbook dynamic programme, to check the bit-parallel one against. */
function lcsTable(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const row = [0];
    for (let j = 1; j <= b.length; j++) {
      row[j] =
        x === b[j - 1]
          ? (previous[j - 1] as number) + 1
          : Math.max(previous[j] as number, row[j - 1] as number);
    }
    previous = row;
  }
  return previous[b.length] as number;
}

/** Deterministic pseudo-random sequences over a small alphabet (so matches are frequent). */
function sequence(seed: number, length: number, alphabet: number): string[] {
  let state = seed;
  return Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return `t${state % alphabet}`;
  });
}

describe("lcsLength", () => {
  it("finds hand-computed subsequences", () => {
    expect(lcsLength([..."ABCBDAB"], [..."BDCABA"])).toBe(4); // BCBA
    expect(lcsLength([..."AGGTAB"], [..."GXTXAYB"])).toBe(4); // GTAB
    expect(lcsLength(["a"], ["b"])).toBe(0);
    expect(lcsLength([], ["a"])).toBe(0);
  });

  it("agrees with the dynamic programme across word boundaries (32, 64 tokens and more)", () => {
    for (const [n, m, alphabet] of [
      [31, 40, 3],
      [32, 32, 4],
      [33, 90, 5],
      [64, 65, 2],
      [100, 250, 8],
      [257, 300, 30],
    ] as const) {
      for (let seed = 1; seed <= 5; seed++) {
        const a = sequence(seed, n, alphabet);
        const b = sequence(seed * 7919, m, alphabet);
        expect(lcsLength(a, b)).toBe(lcsTable(a, b));
        expect(lcsLength(b, a)).toBe(lcsTable(a, b));
      }
    }
  });
});

describe("rougeL", () => {
  it("scores Lin's example by its LCS", () => {
    // Reference [police, killed, gunman], candidate [police, kill, gunman]: LCS 2 of 3.
    const score = rougeL("police kill the gunman", "police killed the gunman");
    expect(score.precision).toBeCloseTo(2 / 3, 10);
    expect(score.recall).toBeCloseTo(2 / 3, 10);
    expect(score.f_measure).toBeCloseTo(2 / 3, 10);
    // Same words, reversed order: only one survives in sequence.
    expect(rougeL("the gunman kill police", "police killed the gunman").recall).toBeCloseTo(
      1 / 3,
      10,
    );
  });

  it("is order-sensitive on Chinese characters where F1 is not", () => {
    // LCS of 北京是中国的首都 and 首都是北京 is 2 (北京 or 首都): P 2/8, R 2/5.
    const score = rougeL("北京是中国的首都", "首都是北京");
    expect(score.precision).toBeCloseTo(0.25, 10);
    expect(score.recall).toBeCloseTo(0.4, 10);
    expect(score.f_measure).toBeCloseTo(0.2 / 0.65, 10);
  });

  it("weights recall with beta", () => {
    // P 1/2, R 1: F(β=2) = 5·0.5·1 / (1 + 4·0.5) = 5/6.
    const score = rougeLOfTokens(["a", "b"], ["a"], 2);
    expect(score.f_measure).toBeCloseTo(5 / 6, 10);
  });

  it("reads at most MAX_ROUGE_TOKENS of each side", () => {
    const long = Array.from({ length: MAX_ROUGE_TOKENS + 500 }, (_, i) => `t${i}`);
    const score = rougeLOfTokens(long, long);
    expect(score.f_measure).toBe(1);
    expect(rougeLOfTokens(long, long.slice(MAX_ROUGE_TOKENS)).f_measure).toBe(0);
  });

  it("is 0 with nothing in common or nothing to compare", () => {
    expect(rougeL("Denver", "Boston").f_measure).toBe(0);
    expect(rougeL("", "Boston").f_measure).toBe(0);
  });
});
