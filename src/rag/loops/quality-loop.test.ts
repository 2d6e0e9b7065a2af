import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { isChat, promptText } from "../../../test/support/scripted-llm.js";
import { scriptedClient, useScriptedLlm } from "../../../test/support/use-scripted-llm.js";
import type { LlmRole } from "../../llm/index.js";
import type { RetrievalSource, RetrievedHit, RetrieveRequest } from "../types.js";
import { parseLoopsConfig } from "./config.js";
import { fixedRetriever, makeHit } from "./fixed-retriever.js";
import { QUALITY_NODES, runQualityLoop } from "./quality-loop.js";

const server = useScriptedLlm();

function client(role: LlmRole, model = `${role}-model`) {
  return scriptedClient(server, role, {
    max_retries: 0,
    timeout_ms: 5_000,
    roles: { [role]: { model } },
  });
}

/** 20 hits over three sources, relevance 0.8: grades high. */
const GOOD: RetrievedHit[] = Array.from({ length: 20 }, (_, i) =>
  makeHit({
    node_id: `g${i + 1}`,
    content: `The Great Fire of 1869 destroyed ${i + 1} wooden bridges in the harbour district.`,
    score: 0.8,
    sources: (i % 3 === 0
      ? ["vector", "lexical"]
      : i % 3 === 1
        ? ["vector"]
        : ["memory", "vector"]) as RetrievalSource[],
  }),
);
/** 3 lexical hits, relevance 0.2: grades low with four issues. */
const POOR: RetrievedHit[] = Array.from({ length: 3 }, (_, i) =>
  makeHit({
    node_id: `p${i + 1}`,
    content: `Harbour records mention repairs to the old customs house in year ${i + 1}.`,
    score: 0.2,
    sources: ["lexical"],
  }),
);

const rewriterRequests = () =>
  server.requests.filter((r) => isChat(r) && r.body.model === "rewriter-model");

describe("quality loop (seed 001)", () => {
  it("goes question_router → retrieve → grade_documents → generate when the grade is not low", async () => {
    const run = await runQualityLoop(
      { question: "Which bridges did the Great Fire destroy?", collection_id: "c1" },
      { retrieve: fixedRetriever(GOOD), rewriter: client("rewriter") },
    );
    expect(run.trace.map((s) => s.node)).toEqual([
      "question_router",
      "retrieve",
      "grade_documents",
    ]);
    expect(run.trace.at(-1)).toMatchObject({ next: "generate", router: "grade_documents_route" });
    expect(run.exit).toBe("generate");
    expect(run.exit_reason).toBe("quality");
    expect(rewriterRequests()).toHaveLength(0);
    // Seed 001's state fields.
    expect(run.state).toMatchObject({
      query: "Which bridges did the Great Fire destroy?",
      quality_grade: "high",
      quality_issues: [],
      retry_count: 0,
      original_queries: [],
    });
    expect(run.state.fused_results).toHaveLength(20);
    expect(run.state.quality_score).toBeCloseTo(0.4 + 0.24 + 0.2 + 0.1, 12);
    for (const step of run.trace) expect(QUALITY_NODES).toContain(step.node);
  });

  it("rewrites a low grade at most twice, then forces generate", async () => {
    server.on({
      when: isChat,
      reply: (r) => ({ content: `rewritten ${server.requests.length}: ${r.body.model}` }),
    });
    const run = await runQualityLoop(
      { question: "customs house", collection_id: "c1" },
      { retrieve: fixedRetriever(POOR), rewriter: client("rewriter") },
    );
    expect(run.trace.map((s) => s.node)).toEqual([
      "question_router",
      "retrieve",
      "grade_documents",
      "rewrite_query",
      "question_router",
      "retrieve",
      "grade_documents",
      "rewrite_query",
      "question_router",
      "retrieve",
      "grade_documents",
    ]);
    expect(run.exit_reason).toBe("retry_limit");
    expect(run.state.retry_count).toBe(2);
    expect(run.state.quality_grade).toBe("low");
    expect(run.state.original_queries).toEqual(["customs house", "rewritten 1: rewriter-model"]);
    expect(run.state.query).toBe("rewritten 2: rewriter-model");
    expect(run.state.rewrites.map((r) => r.by)).toEqual(["llm", "llm"]);
    expect(run.state.grades).toHaveLength(3);
    expect(rewriterRequests()).toHaveLength(2);
    // Seed 001 AC 2: one strategy per issue; the single-source strategy asks for every source.
    const prompt = promptText(rewriterRequests()[0] as never);
    expect(prompt).toContain("Original query: customs house");
    expect(prompt.match(/^\d\. /gm)).toHaveLength(4);
    expect(prompt).toContain("Mean relevance score too low (0.20)");
    expect(run.state.rewrites[0]?.requested_sources).toEqual(["lexical", "vector", "memory"]);
  });

  it("never rewrites more than max_rewrites, whatever the retriever returns", async () => {
    for (const max_rewrites of [0, 1, 2]) {
      const config = parseLoopsConfig({ quality: { max_rewrites } });
      const run = await runQualityLoop(
        { question: "customs house", collection_id: "c1" },
        { retrieve: fixedRetriever(POOR), config },
      );
      expect(run.state.retry_count).toBe(max_rewrites);
      expect(run.trace.filter((s) => s.node === "rewrite_query")).toHaveLength(max_rewrites);
      expect(run.state.rewrites.every((r) => r.by === "expansion")).toBe(true);
    }
  });

  it("exits early once a rewrite brings the score to 0.5", async () => {
    server.on({
      when: isChat,
      reply: { content: "Rewritten query: Great Fire bridges destroyed" },
    });
    const queries: string[] = [];
    const retrieve = fixedRetriever((request: RetrieveRequest) => {
      queries.push(request.query);
      return request.query.includes("bridges") ? GOOD : POOR;
    });
    const run = await runQualityLoop(
      { question: "fire", collection_id: "c1" },
      { retrieve, rewriter: client("rewriter") },
    );
    expect(queries).toEqual(["fire", "Great Fire bridges destroyed"]);
    expect(run.state.retry_count).toBe(1);
    expect(run.exit_reason).toBe("quality");
    expect(run.state.grades.map((g) => g.quality_grade)).toEqual(["low", "high"]);
  });

  it("passes the rewrite's requested sources and the injected questionRouter to retrieval", async () => {
    const asked: RetrievalSource[][] = [];
    // Whatever is asked for, only old observations come back: low on every dimension.
    const remembered = POOR.map((hit) => ({
      ...hit,
      source: "memory" as const,
      sources: ["memory" as const],
    }));
    const retrieve = async (request: RetrieveRequest) => {
      asked.push([...request.sources]);
      return { fused_results: remembered, per_source: { memory: remembered } };
    };
    const run = await runQualityLoop(
      { question: "customs house", collection_id: "c1" },
      {
        retrieve,
        questionRouter: () => ["lexical"],
        config: parseLoopsConfig({ quality: { max_rewrites: 1 } }),
      },
    );
    expect(asked).toEqual([["lexical"], ["lexical", "vector", "memory"]]);
    // "auto" follows the sources the router can use: asking for vector does not make it usable
    // (no embedder would return nothing, and its coverage would grade every rewrite as a miss).
    expect(run.state.grades.map((g) => g.dimensions.priority_source)).toEqual([
      "lexical",
      "lexical",
    ]);
  });

  it("holds the budget with a hanging rewriter: aborts the call in flight and goes to generate", async () => {
    server.on({ when: isChat, reply: { hang: true } });
    const rewriter = client("rewriter");
    const config = parseLoopsConfig({ quality: { budget_ms: 300 } });
    const started = performance.now();
    const run = await runQualityLoop(
      { question: "customs house", collection_id: "c1" },
      { retrieve: fixedRetriever(POOR), rewriter, config },
    );
    // Not before the budget; and the rewriter never answers, so only the budget's abort ends it.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(run.exit).toBe("generate");
    expect(run.exit_reason).toBe("timeout");
    expect(run.trace.at(-1)).toMatchObject({
      node: "rewrite_query",
      timed_out: true,
      next: "generate",
    });
    // The last graded retrieval is kept for generation.
    expect(run.state.fused_results).toHaveLength(3);
    expect(run.state.retry_count).toBe(0);
    // The call was aborted, not left running: the client recorded a failure and the server
    // saw its connection close.
    expect(rewriter.usage()).toMatchObject({ calls: 1, failed_calls: 1 });
    await expect.poll(() => server.inFlight, { timeout: 500, interval: 10 }).toBe(0);
  });

  it("holds the budget with a slow rewriter: the second rewrite is aborted", async () => {
    server.on({ when: isChat, reply: { content: "customs house records", latencyMs: 200 } });
    const rewriter = client("rewriter");
    const config = parseLoopsConfig({ quality: { budget_ms: 300 } });
    const run = await runQualityLoop(
      { question: "customs house", collection_id: "c1" },
      { retrieve: fixedRetriever(POOR), rewriter, config },
    );
    expect(run.exit_reason).toBe("timeout");
    expect(run.state.retry_count).toBe(1);
    expect(rewriter.usage()).toMatchObject({ calls: 2, failed_calls: 1 });
    await expect.poll(() => server.inFlight, { timeout: 500, interval: 10 }).toBe(0);
  });

  it("aborts a retriever that is still running when the budget ends", async () => {
    let aborted = false;
    const retrieve = async (request: RetrieveRequest) => {
      await sleep(5_000, undefined, { signal: request.signal }).catch((error) => {
        aborted = request.signal?.aborted === true;
        throw error;
      });
      return { fused_results: [], per_source: {} };
    };
    const run = await runQualityLoop(
      { question: "anything", collection_id: "c1" },
      { retrieve, config: parseLoopsConfig({ quality: { budget_ms: 100 } }) },
    );
    expect(aborted).toBe(true);
    expect(run.exit_reason).toBe("timeout");
    expect(run.trace.map((s) => s.node)).toEqual(["question_router", "retrieve"]);
  });
});
