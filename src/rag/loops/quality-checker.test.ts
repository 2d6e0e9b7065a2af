import { describe, expect, it } from "vitest";
import type { RetrievalSource, RetrievedHit } from "../types.js";
import { parseLoopsConfig } from "./config.js";
import { makeHit } from "./fixed-retriever.js";
import {
  QualityChecker,
  queryClarity,
  querySpecificity,
  resolvePrioritySource,
  retrievalFocus,
} from "./quality-checker.js";

function hits(
  count: number,
  score: number,
  sourcesOf: (i: number) => RetrievalSource[],
): RetrievedHit[] {
  return Array.from({ length: count }, (_, i) =>
    makeHit({ node_id: `n${i + 1}`, content: `chunk ${i + 1}`, score, sources: sourcesOf(i) }),
  );
}

const checker = new QualityChecker({ priority_source: "vector" });

describe("QualityChecker (seed 001)", () => {
  it("grades high: 0.75×0.4 + 0.8×0.3 + 3/3×0.2 + 20/20×0.1 = 0.84, no issues", () => {
    // 15 of 20 found by vector (some ranked first by lexical), three sources in all.
    const docs = hits(20, 0.8, (i) =>
      i < 10 ? ["vector"] : i < 15 ? ["lexical", "vector"] : i < 18 ? ["lexical"] : ["memory"],
    );
    const report = checker.gradeDocuments(docs);
    expect(report.quality_grade).toBe("high");
    expect(report.quality_score).toBeCloseTo(0.84, 12);
    expect(report.quality_issues).toEqual([]);
    expect(report.dimensions).toMatchObject({
      priority_source: "vector",
      priority_coverage: 0.75,
      mean_relevance: expect.closeTo(0.8, 12),
      source_diversity: 1,
      document_count_score: 1,
      documents: 20,
      sources: ["lexical", "memory", "vector"],
    });
  });

  it("grades medium: 0.6×0.4 + 0.7×0.3 + 2/3×0.2 + 10/20×0.1 = 0.63333…", () => {
    const docs = hits(10, 0.7, (i) => (i < 6 ? ["vector"] : ["lexical"]));
    const report = checker.gradeDocuments(docs);
    expect(report.quality_grade).toBe("medium");
    expect(report.quality_score).toBeCloseTo(0.24 + 0.21 + 0.2 * (2 / 3) + 0.05, 12);
    expect(report.quality_issues).toEqual([]);
  });

  it("grades low with the seed's four issues, in English and Chinese", () => {
    const docs = hits(4, 0.3, () => ["lexical"]);
    const report = checker.gradeDocuments(docs);
    expect(report.quality_grade).toBe("low");
    // 0 + 0.3×0.3 + 1/3×0.2 + 4/20×0.1
    expect(report.quality_score).toBeCloseTo(0.09 + 0.2 / 3 + 0.02, 12);
    expect(report.quality_issues).toEqual([
      {
        code: "low_priority_coverage",
        en: "Priority-source (vector) coverage too low (0% < 50%)",
        zh: "优先数据源(vector)覆盖率不足(0% < 50%)",
      },
      {
        code: "low_mean_relevance",
        en: "Mean relevance score too low (0.30)",
        zh: "平均相关性分数过低(0.30)",
      },
      {
        code: "single_source",
        en: "Single data source (at least 2 recommended)",
        zh: "数据源单一(建议至少2个)",
      },
      { code: "few_documents", en: "Too few documents (4<10)", zh: "文档数量不足(4<10)" },
    ]);
  });

  it("grades empty input low, 0.0, 'No documents retrieved'", () => {
    const report = checker.gradeDocuments([]);
    expect(report.quality_grade).toBe("low");
    expect(report.quality_score).toBe(0);
    expect(report.quality_issues).toEqual([
      { code: "no_documents", en: "No documents retrieved", zh: "未检索到任何文档" },
    ]);
  });

  it("puts the thresholds on the boundaries: >= 0.7 high, >= 0.5 medium", () => {
    expect(checker.gradeOf(0.7)).toBe("high");
    expect(checker.gradeOf(0.6999)).toBe("medium");
    expect(checker.gradeOf(0.5)).toBe("medium");
    expect(checker.gradeOf(0.4999)).toBe("low");
  });

  it("takes configurable weights (normalized) and priority source", () => {
    const docs = hits(10, 0.7, (i) => (i < 6 ? ["vector"] : ["lexical"]));
    const coverageOnly = new QualityChecker({
      priority_source: "lexical",
      weights: { priority_coverage: 2, mean_relevance: 0, source_diversity: 0, document_count: 0 },
    });
    const report = coverageOnly.gradeDocuments(docs);
    expect(report.quality_score).toBeCloseTo(0.4, 12);
    expect(report.dimensions.priority_source).toBe("lexical");
    expect(report.quality_issues.map((i) => i.code)).toEqual(["low_priority_coverage"]);
  });

  it("resolves the 'auto' priority source against the run's sources", () => {
    expect(resolvePrioritySource("auto", ["lexical", "vector", "memory"])).toBe("vector");
    expect(resolvePrioritySource("auto", ["lexical", "memory"])).toBe("lexical");
    expect(resolvePrioritySource("memory", ["lexical"])).toBe("memory");
  });

  it("rejects a config with all weights 0, naming the field", () => {
    expect(() =>
      parseLoopsConfig({
        quality: {
          weights: {
            priority_coverage: 0,
            mean_relevance: 0,
            source_diversity: 0,
            document_count: 0,
          },
        },
      }),
    ).toThrow(/loops\.quality\.weights: expected weights must not all be 0/);
    expect(() => parseLoopsConfig({ quality: { max_rewrite: 2 } })).toThrow(
      /loops\.quality: expected no unknown keys \(found max_rewrite\)/,
    );
  });

  it("grades relevance on the top 3 hits (AC 1's Top-3 average), not on every hit", () => {
    const docs = hits(12, 0.1, () => ["lexical"]);
    for (const doc of docs.slice(0, 3)) doc.score = 0.9;
    expect(checker.gradeDocuments(docs).dimensions.mean_relevance).toBeCloseTo(0.9, 12);
  });
});

describe("QualityChecker clarity signals", () => {
  it("specificity: information of the query's terms over ln(chunks), absent terms ignored, capped", () => {
    expect(querySpecificity(undefined)).toBe(1);
    // ln(100/10) / ln(100) = 0.5: a term in one chunk in ten narrows half-way to one chunk.
    expect(querySpecificity({ chunks: 100, terms: [{ term: "metro", chunks: 10 }] })).toBeCloseTo(
      0.5,
      12,
    );
    expect(
      querySpecificity({
        chunks: 100,
        terms: [
          { term: "metro", chunks: 10 },
          { term: "stuff", chunks: 0 },
        ],
      }),
    ).toBeCloseTo(0.5, 12);
    // Two such terms single out a chunk (ln 10 + ln 10 = ln 100): fully specific, and no more.
    expect(
      querySpecificity({
        chunks: 100,
        terms: [
          { term: "metro", chunks: 10 },
          { term: "opened", chunks: 10 },
          { term: "line", chunks: 10 },
        ],
      }),
    ).toBe(1);
  });

  it("focus: how far the best document leads the runner-up, by BM25, chunks of one document not competing", () => {
    const hit = (node: string, doc: string, bm25: number) =>
      makeHit({ node_id: node, content: node, document_id: doc, scores: { bm25 } });
    expect(retrievalFocus([hit("a1", "a", 4), hit("b1", "b", 3)])).toBeCloseTo(0.25, 12);
    expect(retrievalFocus([hit("a1", "a", 4), hit("a2", "a", 3.9), hit("b1", "b", 1)])).toBeCloseTo(
      0.75,
      12,
    );
    expect(retrievalFocus([hit("a1", "a", 4)])).toBe(1);
    expect(retrievalFocus([hit("a1", "a", 2), hit("b1", "b", 2)])).toBe(0);
    expect(retrievalFocus([])).toBe(0);
    // Without BM25 on every hit, the hit scores.
    const scored = [
      makeHit({ node_id: "x", content: "x", document_id: "x", score: 0.8 }),
      makeHit({ node_id: "y", content: "y", document_id: "y", score: 0.2 }),
    ];
    expect(retrievalFocus(scored)).toBeCloseTo(0.75, 12);
  });

  it("clarity: a specific query is clear whatever its runners-up; a vague one loses S to S²", () => {
    expect(queryClarity(1, 0)).toBe(1);
    expect(queryClarity(0.5, 1)).toBeCloseTo(0.5, 12);
    expect(queryClarity(0.5, 0)).toBeCloseTo(0.25, 12);
    expect(queryClarity(0.5, 0.5)).toBeCloseTo(0.375, 12);
  });

  it("grades a one-word query matching three unrelated documents low, with a vague_query issue", () => {
    const lexical = (node: string, doc: string, bm25: number, score: number) =>
      makeHit({ node_id: node, content: node, document_id: doc, score, scores: { bm25 } });
    const docs = [lexical("faq", "faq", 3, 1), lexical("art", "art", 2.3, 0.98)];
    docs.push(lexical("transport", "transport", 1.5, 0.96));
    const lexicalChecker = new QualityChecker({ priority_source: "lexical" });
    // The same hits for a question whose terms single out a chunk grade medium...
    const specific = lexicalChecker.gradeDocuments(docs, {
      query_stats: {
        chunks: 20,
        terms: [
          { term: "metro", chunks: 3 },
          { term: "opened", chunks: 2 },
        ],
      },
    });
    expect(specific.dimensions.clarity).toBe(1);
    expect(specific.quality_grade).toBe("high");
    expect(specific.quality_issues.map((i) => i.code)).not.toContain("vague_query");
    // ...and for "metro" alone (in 3 of 20 chunks) low: the evidence is discounted by clarity.
    const vague = lexicalChecker.gradeDocuments(docs, {
      query_stats: { chunks: 20, terms: [{ term: "metro", chunks: 3 }] },
    });
    const s = Math.log(20 / 3) / Math.log(20);
    const f = 1 - 2.3 / 3;
    expect(vague.dimensions.specificity).toBeCloseTo(s, 12);
    expect(vague.dimensions.focus).toBeCloseTo(f, 12);
    expect(vague.dimensions.clarity).toBeCloseTo(s * (s + (1 - s) * f), 12);
    expect(vague.quality_score).toBeCloseTo(specific.quality_score * vague.dimensions.clarity, 12);
    expect(vague.quality_grade).toBe("low");
    expect(vague.quality_issues.at(-1)).toEqual({
      code: "vague_query",
      en: "Query too vague (specificity 63%, best document ahead of the next by 23%)",
      zh: "查询过于模糊(特异性63%，最佳文档领先第二名23%)",
    });
  });
});
