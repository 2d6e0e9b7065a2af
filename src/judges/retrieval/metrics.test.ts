import { describe, expect, it } from "vitest";
import { type RankedEntry, retrievalMetrics } from "./metrics.js";

/** A ranking of document ids, each entry matching itself when relevant. */
function ranking(ids: readonly string[], relevant: readonly string[]): RankedEntry[] {
  return ids.map((id) => ({ key: id, matches: relevant.includes(id) ? [id] : [] }));
}

describe("retrievalMetrics", () => {
  // ranx's README example (qrels q_1 {d_12: 5, d_25: 3}, run ordered d_12, d_23, d_25, d_36,
  // d_32, d_35) with binary relevance. By trec_eval's definitions (P.5, recall.5, recip_rank,
  // ndcg_cut.5, gain = relevance): P@5 = 2/5, recall@5 = 2/2, RR = 1/1,
  // nDCG@5 = (1/log2 2 + 1/log2 4) / (1/log2 2 + 1/log2 3) = 1.5 / 1.63093 = 0.919721.
  it("scores ranx's first example query as trec_eval defines the metrics", () => {
    const relevant = ["d_12", "d_25"];
    const run = ranking(["d_12", "d_23", "d_25", "d_36", "d_32", "d_35"], relevant);
    const metrics = retrievalMetrics(run, relevant, 5);
    expect(metrics).toMatchObject({ k: 5, relevant: 2, retrieved: 6, found: 2 });
    expect(metrics.hit_rate).toBe(1);
    expect(metrics.recall).toBe(1);
    expect(metrics.precision).toBeCloseTo(0.4, 12);
    expect(metrics.mrr).toBe(1);
    expect(metrics.ndcg).toBeCloseTo(0.9197207891481876, 12);
  });

  // ranx's second query (qrels {d_11, d_22}; run d_12, d_11, d_25, d_36, d_22, d_35): the first
  // relevant at rank 2 (RR = 0.5), the second at rank 5.
  // nDCG@5 = (1/log2 3 + 1/log2 6) / (1 + 1/log2 3) = 0.624051; at k = 3 only d_11 counts:
  // recall@3 = 1/2, P@3 = 1/3, nDCG@3 = (1/log2 3) / (1 + 1/log2 3) = 0.386853.
  it("scores ranx's second example query at two cutoffs", () => {
    const relevant = ["d_11", "d_22"];
    const run = ranking(["d_12", "d_11", "d_25", "d_36", "d_22", "d_35"], relevant);
    const at5 = retrievalMetrics(run, relevant, 5);
    expect(at5.mrr).toBe(0.5);
    expect(at5.matched).toEqual([
      { id: "d_11", rank: 2 },
      { id: "d_22", rank: 5 },
    ]);
    expect(at5.recall).toBe(1);
    expect(at5.precision).toBeCloseTo(0.4, 12);
    expect(at5.ndcg).toBeCloseTo(0.6240505200038379, 12);
    const at3 = retrievalMetrics(run, relevant, 3);
    expect(at3).toMatchObject({ found: 1, hit_rate: 1, recall: 0.5, mrr: 0.5 });
    expect(at3.precision).toBeCloseTo(1 / 3, 12);
    expect(at3.ndcg).toBeCloseTo(0.38685280723454163, 12);
  });

  it("drops a repeated retrieved id, so it takes no rank (a TREC run holds each id once)", () => {
    const relevant = ["b"];
    const run = ranking(["a", "a", "b"], relevant);
    const metrics = retrievalMetrics(run, relevant, 2);
    // Deduplicated: a, b. Counted twice, b would sit at rank 3, outside the cutoff.
    expect(metrics).toMatchObject({ retrieved: 2, found: 1, hit_rate: 1, recall: 1, mrr: 0.5 });
    expect(metrics.precision).toBe(0.5);
    expect(metrics.ndcg).toBeCloseTo(0.6309297535714575, 12);
  });

  it("credits a relevant document once, however many of its chunks are retrieved", () => {
    const run: RankedEntry[] = [
      { key: "doc-1#0", matches: ["doc-1"] },
      { key: "doc-1#1", matches: ["doc-1"] },
      { key: "doc-9#0", matches: [] },
    ];
    const metrics = retrievalMetrics(run, ["doc-1"], 3);
    expect(metrics).toMatchObject({ found: 1, recall: 1, mrr: 1, ndcg: 1 });
    // The second chunk of doc-1 keeps rank 2 but gains nothing: 1 hit in 3, not 2.
    expect(metrics.precision).toBeCloseTo(1 / 3, 12);
  });

  it("keeps the order given when scores tie: the metrics read ranks, never scores", () => {
    // Two contexts tied on score: trec_eval would re-sort them by document id (descending, so
    // "y" first and RR = 1); the bot's order, which its generator saw, puts "x" first.
    const relevant = ["y"];
    expect(retrievalMetrics(ranking(["x", "y"], relevant), relevant, 2).mrr).toBe(0.5);
    expect(retrievalMetrics(ranking(["y", "x"], relevant), relevant, 2).mrr).toBe(1);
  });

  it("divides precision by k even when fewer were retrieved, and caps the ideal DCG at R", () => {
    const one = retrievalMetrics(ranking(["r"], ["r"]), ["r"], 5);
    expect(one).toMatchObject({ retrieved: 1, precision: 0.2, recall: 1, ndcg: 1 });
    // Three relevant, k = 2, both retrieved ones relevant: an ideal top 2.
    const many = retrievalMetrics(ranking(["a", "b"], ["a", "b", "c"]), ["a", "b", "c"], 2);
    expect(many).toMatchObject({ found: 2, precision: 1, ndcg: 1 });
    expect(many.recall).toBeCloseTo(2 / 3, 12);
  });

  it("counts a hit beyond k in MRR only (recip_rank has no cutoff)", () => {
    const metrics = retrievalMetrics(ranking(["a", "b", "c"], ["c"]), ["c"], 2);
    expect(metrics).toMatchObject({ found: 0, hit_rate: 0, recall: 0, precision: 0, ndcg: 0 });
    expect(metrics.mrr).toBeCloseTo(1 / 3, 12);
  });

  it("gives zeros when nothing relevant is retrieved, and refuses a bad k or no relevant items", () => {
    expect(retrievalMetrics([], ["a"], 3)).toEqual({
      k: 3,
      relevant: 1,
      retrieved: 0,
      found: 0,
      hit_rate: 0,
      recall: 0,
      precision: 0,
      mrr: 0,
      ndcg: 0,
      matched: [],
    });
    expect(() => retrievalMetrics([], ["a"], 0)).toThrow(/k must be/);
    expect(() => retrievalMetrics([], [], 3)).toThrow(/no relevant items/);
  });
});
