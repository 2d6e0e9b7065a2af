import { describe, expect, it } from "vitest";
import type { RetrievalSource, RetrievedHit } from "../types.js";
import { parseLoopsConfig } from "./config.js";
import { makeHit } from "./fixed-retriever.js";
import { QualityChecker, resolvePrioritySource } from "./quality-checker.js";

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
});
