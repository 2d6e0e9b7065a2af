import { describe, expect, it } from "vitest";
import { LoopsConfigError } from "../../rag/loops/index.js";
import { gradeDocuments, retrieve, rewriteQuery, routeAfterGrading } from "./quality-nodes.js";

const passages = (n: number, score: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    content: `metro line ${i} stations`,
    score,
  }));

describe("routeAfterGrading (seed 001 AC 3)", () => {
  const route = routeAfterGrading();
  const now = Date.now();

  it("rewrites a low grade below two retries, and goes on at retry_count >= 2", () => {
    const low = { quality_grade: "low" as const, quality_score: 0.3, started_at: now };
    expect(route({ ...low, retry_count: 0 })).toBe("rewrite_query");
    expect(route({ ...low, retry_count: 1 })).toBe("rewrite_query");
    expect(route({ ...low, retry_count: 2 })).toBe("generate");
  });

  it("goes on at quality_score >= 0.5, and when the grade is medium or high", () => {
    expect(route({ quality_grade: "low", quality_score: 0.5, retry_count: 0 })).toBe("generate");
    expect(route({ quality_grade: "medium", quality_score: 0.55, retry_count: 0 })).toBe(
      "generate",
    );
  });

  it("goes on when the 10 s budget is spent or a node ran out of it", () => {
    const low = { quality_grade: "low" as const, quality_score: 0.1, retry_count: 0 };
    expect(route({ ...low, started_at: now - 9_000 })).toBe("rewrite_query");
    expect(route({ ...low, started_at: now - 10_000 })).toBe("generate");
    expect(route({ ...low, started_at: now, timed_out: true })).toBe("generate");
    const quick = routeAfterGrading({ config: { quality: { budget_ms: 50 } } });
    expect(quick({ ...low, started_at: now - 60 })).toBe("generate");
  });
});

describe("the quality nodes", () => {
  it("gradeDocuments fills in the state a run starts with and passes retry_count through", async () => {
    const update = await gradeDocuments()({ question: "metro", fused_results: passages(20, 0.9) });
    expect(update).toMatchObject({
      query: "metro",
      retry_count: 0,
      quality_grade: "high",
      original_queries: [],
      language: "en",
    });
    expect(update.started_at).toBeTypeOf("number");
    expect(update.grades).toHaveLength(1);
    const again = await gradeDocuments()({
      question: "metro",
      query: "metro",
      retry_count: 1,
      started_at: Date.now(),
      fused_results: [{ id: "p", content: "metro", score: 0.1, source: "lexical" }],
    });
    expect(again).toMatchObject({ quality_grade: "low", retry_count: 1 });
    expect(again.query).toBeUndefined();
  });

  it("rewriteQuery without a model expands the query from the top passages; retry_count + 1", async () => {
    const update = await rewriteQuery()({
      question: "metro",
      retry_count: 0,
      fused_results: passages(3, 0.2),
      quality_issues: [],
    });
    expect(update.retry_count).toBe(1);
    expect(update.original_queries).toEqual(["metro"]);
    expect(update.query).toMatch(/^metro \S/);
    expect(update.rewrites?.[0]).toMatchObject({ by: "expansion", from: "metro" });
  });

  it("retrieve ends at the budget even when the user's retriever ignores its signal", async () => {
    const node = retrieve({
      retrieve: () => new Promise<never>(() => {}),
      config: { quality: { budget_ms: 100 } },
    });
    const update = await node({ question: "metro", started_at: Date.now() });
    expect(update.timed_out).toBe(true);
    // Only the state a run starts with: no retrieval was written.
    expect(update.fused_results).toEqual([]);
  });

  it("a node starting after the budget is spent does nothing but say so", async () => {
    let asked = 0;
    const node = retrieve({ retrieve: () => (asked++, []) });
    const update = await node({ question: "metro", started_at: Date.now() - 10_000 });
    expect(update.timed_out).toBe(true);
    expect(asked).toBe(0);
  });

  it("names the field at fault: a missing question, an invalid setting", async () => {
    await expect(gradeDocuments()({} as never)).rejects.toThrow(/^state\.question: expected/);
    expect(() => gradeDocuments({ config: { quality: { max_rewrites: -1 } } })).toThrow(
      LoopsConfigError,
    );
    expect(() => routeAfterGrading({ config: { quality: { budget_ms: 0 } } })).toThrow(
      /loops\.quality\.budget_ms/,
    );
  });
});
