import { describe, expect, it } from "vitest";
import { isChat, type RecordedRequest } from "../../../test/support/scripted-llm.js";
import { scriptedClient, useScriptedLlm } from "../../../test/support/use-scripted-llm.js";
import { DEFAULT_LOOPS_CONFIG } from "./config.js";
import { makeHit } from "./fixed-retriever.js";
import { QualityChecker } from "./quality-checker.js";
import {
  cleanRewriteReply,
  expandQuery,
  QueryRewriter,
  requestedSourcesFor,
} from "./query-rewriter.js";

const server = useScriptedLlm();

function rewriterClient() {
  return scriptedClient(server, "rewriter", { max_retries: 0 });
}

const HITS = [
  makeHit({
    node_id: "n1",
    content: "Harbour warehouses burned; the customs house survived the harbour fire.",
    score: 0.4,
  }),
  makeHit({
    node_id: "n2",
    content: "Customs records list warehouses and ships in the harbour.",
    score: 0.3,
  }),
  makeHit({ node_id: "n3", content: "Ships left the harbour at dawn.", score: 0.2 }),
  makeHit({ node_id: "n4", content: "Zebras are not relevant here at all.", score: 0.1 }),
];
const LOW = new QualityChecker({ priority_source: "vector" }).gradeDocuments(HITS);

describe("QueryRewriter (seed 001)", () => {
  it("sends the seed's prompt with one strategy per issue and returns the cleaned query", async () => {
    server.on({
      when: isChat,
      reply: { content: '```\nRewritten query: "harbour fire customs house damage"\n```' },
    });
    const rewrite = await new QueryRewriter({ client: rewriterClient() }).rewrite({
      query: "customs house",
      issues: LOW.quality_issues,
      hits: HITS,
      priority_source: "vector",
      available_sources: ["lexical", "vector", "memory"],
      language: "en",
    });
    expect(rewrite).toMatchObject({
      query: "harbour fire customs house damage",
      by: "llm",
      strategies: ["low_priority_coverage", "low_mean_relevance", "single_source", "few_documents"],
      requested_sources: ["lexical", "vector", "memory"],
    });
    const request = server.requests[0] as RecordedRequest;
    expect(request.body.temperature).toBe(0.3);
    const [system, user] = request.body.messages ?? [];
    expect(system?.content).toBe("You are a query optimization expert.");
    expect(user?.content).toBe(
      [
        "Problems with the current query:",
        "- Priority-source (vector) coverage too low (0% < 50%)",
        "- Mean relevance score too low (0.30)",
        "- Single data source (at least 2 recommended)",
        "- Too few documents (4<10)",
        "",
        "Rewrite the query with these strategies:",
        "1. Priority-source coverage is too low → make the query explicitly target the vector source: use a complete, plain-language description of the information needed.",
        "2. Relevance scores are low → use more precise keywords for the exact information asked.",
        "3. Only one data source answered → make the query explicitly answerable by several sources: give both the key terms and a plain description.",
        "4. Too few documents → broaden the query's scope with synonyms and closely related terms.",
        "",
        "Original query: customs house",
        "",
        "Output the rewritten query (the query text only):",
      ].join("\n"),
    );
  });

  it("writes the prompt in Chinese for a Chinese query, with only the strategies needed", async () => {
    server.on({ when: isChat, reply: { content: "重写后的查询：港口大火 海关大楼 损毁情况" } });
    const issues = LOW.quality_issues.filter((i) => i.code === "low_mean_relevance");
    const rewrite = await new QueryRewriter({ client: rewriterClient() }).rewrite({
      query: "海关大楼",
      issues,
      hits: HITS,
      priority_source: "vector",
      available_sources: ["lexical", "vector"],
      language: "zh",
    });
    expect(rewrite.query).toBe("港口大火 海关大楼 损毁情况");
    expect(rewrite.requested_sources).toEqual([]);
    const user = server.requests[0]?.body.messages?.[1]?.content ?? "";
    expect(user).toContain("当前查询的问题:\n- 平均相关性分数过低(0.30)");
    expect(user).toContain(
      "请重写查询,改进策略:\n1. 相关性分数低 → 使用更精确的关键词。\n\n原查询: 海关大楼",
    );
    expect(user).toContain("请输出重写后的查询（仅输出查询文本）:");
  });

  it("expands the query from the top documents when no rewriter model is configured", async () => {
    const rewrite = await new QueryRewriter().rewrite({
      query: "customs house",
      issues: LOW.quality_issues,
      hits: HITS,
      priority_source: "vector",
      available_sources: ["lexical", "vector"],
      language: "en",
    });
    // n1 matches the whole query, n2 half of it, n3 none: n1's own words lead (burned, survived,
    // fire), then warehouses (n1, n2), then harbour (in every document, so the lowest idf).
    // Zebras (4th) are never read.
    expect(rewrite).toMatchObject({
      query: "customs house burned survived fire warehouses harbour",
      by: "expansion",
      fallback_reason: "no rewriter model configured",
    });
    expect(server.requests).toHaveLength(0);
  });

  it("falls back to the expansion when the rewriter call fails, and says why", async () => {
    server.on({ when: isChat, reply: { status: 500, message: "model overloaded" } });
    const rewrite = await new QueryRewriter({ client: rewriterClient() }).rewrite({
      query: "customs house",
      issues: LOW.quality_issues,
      hits: HITS,
      priority_source: "vector",
      available_sources: ["lexical"],
      language: "en",
    });
    expect(rewrite.by).toBe("expansion");
    expect(rewrite.fallback_reason).toMatch(/^LlmHttpError: HTTP 500 .*model overloaded/);
    expect(rewrite.call).toBeUndefined();
  });

  it("reduces a query that found nothing to its content words", () => {
    expect(expandQuery("what is the history of the customs house?", [])).toBe(
      "history customs house",
    );
    expect(expandQuery("what is it?", [])).toBe("what is it?");
  });

  it("weighs expansion terms by the collection's idf when the retriever gives termStats", async () => {
    const lanting = [
      makeHit({
        node_id: "t1",
        document_id: "transport",
        title: "Getting around Lanting",
        content: "Lanting Metro opened Line 1 in 2009; the Lanting metro has 33 stations.",
        score: 0.9,
      }),
      makeHit({
        node_id: "f1",
        document_id: "faq",
        title: "When does the Lanting Metro run?",
        content: "Lanting trains run from 05:30 in Lanting.",
        score: 0.8,
      }),
    ];
    const asked: string[][] = [];
    // "lanting" is in every chunk of the collection, the others in one or two of 50.
    const termStats = async (terms: readonly string[]) => {
      asked.push([...terms]);
      return {
        chunks: 50,
        terms: terms.map((term) => ({
          term,
          chunks: term === "lanting" ? 50 : term === "metro" ? 3 : term === "stuff" ? 0 : 2,
        })),
      };
    };
    const rewrite = await new QueryRewriter().rewrite({
      query: "metro stuff",
      issues: [],
      hits: lanting,
      priority_source: "lexical",
      available_sources: ["lexical"],
      language: "en",
      termStats,
    });
    // "stuff" is nowhere in the collection and goes; "lanting" (everywhere) and the numbers (they
    // presume an answer) are not added; "run" is used twice, the rest once, ties in text order.
    expect(asked[0]).toContain("lanting");
    expect(rewrite.query).toBe("metro run getting around opened line");
    expect(rewrite.query).not.toMatch(/lanting|2009|05|33/i);
  });

  it("replaces a query word the collection lacks by the form the hits use", () => {
    const fire = [
      makeHit({
        node_id: "f3",
        document_id: "d3",
        content: "After the Great Fire the council required brick for every new building.",
        score: 0.5,
      }),
      makeHit({
        node_id: "f1",
        document_id: "d1",
        content: "The Great Fire destroyed 412 buildings, including the town hall.",
        score: 0.45,
      }),
    ];
    const query = expandQuery("How many buildings did the Great Fire destroy?", fire, {
      ...DEFAULT_LOOPS_CONFIG.rewrite,
      expansion_terms: 2,
    });
    // "destroy" becomes "destroyed", and the chunk that has it weighs most in the feedback.
    expect(query).toBe("buildings great fire destroyed including town");
  });

  it("asks for the priority source on low coverage and every source when only one answered", () => {
    expect(
      requestedSourcesFor(["low_priority_coverage"], "memory", ["lexical", "vector", "memory"]),
    ).toEqual(["memory"]);
    expect(requestedSourcesFor(["low_priority_coverage"], "memory", ["lexical"])).toEqual([]);
    expect(requestedSourcesFor(["single_source"], "vector", ["lexical", "vector"])).toEqual([
      "lexical",
      "vector",
    ]);
    expect(requestedSourcesFor(["few_documents"], "vector", ["lexical", "vector"])).toEqual([]);
  });

  it("cleans replies: labels, quotes, fences, blank lines and length", () => {
    expect(cleanRewriteReply('\n\n"harbour fire"\nexplanation follows', 100)).toBe("harbour fire");
    expect(cleanRewriteReply("Query: 「海关」", 100)).toBe("海关");
    expect(cleanRewriteReply("x".repeat(50), 16)).toBe("x".repeat(16));
    expect(cleanRewriteReply("```\n```", 100)).toBe("");
  });
});
