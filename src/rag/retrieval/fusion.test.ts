import { describe, expect, it } from "vitest";
import { coverage, rerank, type TermStats } from "./rerank.js";
import { availableSources, questionRouter } from "./router.js";
import { reciprocalRankFusion } from "./rrf.js";
import { retrievalTokens } from "./tokens.js";

describe("questionRouter", () => {
  it("always asks lexical, vector with an embedder, memory with observations", () => {
    expect(questionRouter("q", { vector: false, memory: false })).toEqual(["lexical"]);
    expect(questionRouter("q", { vector: true, memory: false })).toEqual(["lexical", "vector"]);
    expect(questionRouter("q", { vector: true, memory: true })).toEqual([
      "lexical",
      "vector",
      "memory",
    ]);
    expect(availableSources({ vector: false, memory: true })).toEqual(["lexical", "memory"]);
  });

  it("accepts the loops' form: a list of sources that may be used", () => {
    expect(questionRouter("q", ["memory", "lexical"])).toEqual(["lexical", "memory"]);
    expect(questionRouter("q", [])).toEqual(["lexical"]);
  });
});

describe("reciprocalRankFusion", () => {
  it("sums 1 / (k + rank) over sources and keeps the best-ranking source", () => {
    const fused = reciprocalRankFusion(
      [
        { source: "lexical", ids: ["a", "b", "c"] },
        { source: "vector", ids: ["b", "d"] },
        { source: "memory", ids: ["c"] },
      ],
      60,
    );
    expect(fused.map((hit) => hit.node_id)).toEqual(["b", "c", "a", "d"]);
    const b = fused[0];
    expect(b?.rrf).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(b?.source).toBe("vector");
    expect(b?.sources).toEqual(["lexical", "vector"]);
    expect(b?.ranks).toEqual({ lexical: 2, vector: 1 });
    // c: lexical rank 3, memory rank 1 -> memory found it first.
    expect(fused[1]).toMatchObject({
      node_id: "c",
      source: "memory",
      sources: ["lexical", "memory"],
    });
    // a (lexical 1) and d (vector 2): a's single rank is better.
    expect(fused[2]?.rrf).toBeCloseTo(1 / 61, 12);
  });

  it("breaks equal scores by source order, and counts a repeat within a list once", () => {
    const fused = reciprocalRankFusion([
      { source: "vector", ids: ["v", "v"] },
      { source: "lexical", ids: ["l"] },
    ]);
    expect(fused.map((hit) => [hit.node_id, hit.source])).toEqual([
      ["l", "lexical"],
      ["v", "vector"],
    ]);
    expect(fused[1]?.rrf).toBeCloseTo(1 / 61, 12);
  });

  it("uses the k it is given", () => {
    const [hit] = reciprocalRankFusion([{ source: "lexical", ids: ["a"] }], 1);
    expect(hit?.rrf).toBe(0.5);
  });
});

describe("rerank", () => {
  const contents: Record<string, string[]> = {
    full: ["tram", "lanting", "1891"],
    half: ["tram", "bus"],
    none: ["flood"],
  };
  const idf: Record<string, number> = { tram: 1, lanting: 0.5, 1891: 2 };
  const stats: TermStats = {
    idf: (term) => idf[term] ?? 3,
    contains: (id, term) => contents[id]?.includes(term) ?? false,
  };

  it("weights coverage by idf, and a term the collection lacks counts against every chunk", () => {
    expect(coverage("full", ["tram", "lanting", "1891"], stats)).toBe(1);
    expect(coverage("half", ["tram", "lanting", "1891"], stats)).toBeCloseTo(1 / 3.5, 12);
    expect(coverage("full", ["tram", "tokyo"], stats)).toBeCloseTo(1 / 4, 12);
    expect(coverage("full", [], stats)).toBe(0);
  });

  it("scores relevance x position prior in [0, 1], most relevant first", () => {
    const fused = reciprocalRankFusion([
      { source: "lexical", ids: ["none", "half", "full"] },
      { source: "vector", ids: ["none"] },
    ]);
    const ranked = rerank(fused, {
      terms: ["tram", "lanting", "1891"],
      stats,
      signals: (id) => (id === "none" ? { cosine: 0.4 } : {}),
      priorDecay: 0.1,
    });
    expect(ranked.map((hit) => hit.node_id)).toEqual(["full", "none", "half"]);
    const full = ranked[0];
    expect(full?.fused_rank).toBe(2);
    expect(full?.prior).toBeCloseTo(1 / 1.2, 12);
    expect(full?.score).toBeCloseTo(1 / 1.2, 12);
    // Cosine counts as relevance for a chunk that shares no words with the query.
    expect(ranked[1]).toMatchObject({ coverage: 0, relevance: 0.4, score: 0.4 });
    for (const hit of ranked) {
      expect(hit.score).toBeGreaterThanOrEqual(0);
      expect(hit.score).toBeLessThanOrEqual(1);
    }
  });

  it("keeps only `depth` candidates and clamps odd signals", () => {
    const fused = reciprocalRankFusion([{ source: "vector", ids: ["none", "half", "full"] }]);
    const ranked = rerank(fused, {
      terms: ["zzz"],
      stats,
      depth: 2,
      signals: () => ({ cosine: Number.NaN, memory: 7 }),
    });
    expect(ranked).toHaveLength(2);
    expect(ranked.map((hit) => hit.relevance)).toEqual([1, 1]);
  });
});

describe("retrievalTokens", () => {
  it("keeps numbers, drops stopwords and folds plurals; segments Chinese", () => {
    expect(retrievalTokens("When did the trams of Lanting stop in 1971?")).toEqual([
      "tram",
      "lanting",
      "stop",
      "1971",
    ]);
    expect(retrievalTokens("澜汀的防洪堤")).not.toContain("的");
    const chinese = retrievalTokens("新防洪堤于2020年建成");
    expect(chinese).toContain("2020");
    expect(chinese).not.toContain("年");
    expect(chinese.join("")).toContain("防洪");
  });
});
