import { Document } from "@langchain/core/documents";
import { BaseRetriever } from "@langchain/core/retrievers";
import { describe, expect, it } from "vitest";
import type { QueryStats, RetrieveRequest, Retriever } from "../../rag/loops/index.js";
import { hitFromPassage, toRetriever } from "./retriever.js";

/** A real LangChain retriever: BaseRetriever over a fixed shelf of documents. */
class ShelfRetriever extends BaseRetriever {
  lc_namespace = ["test", "shelf"];
  constructor(private readonly documents: Document[]) {
    super();
  }
  override async _getRelevantDocuments() {
    return this.documents;
  }
}

const request = (overrides: Partial<RetrieveRequest> = {}): RetrieveRequest => ({
  collection_id: "c",
  query: "bridge",
  sources: ["lexical", "vector", "memory"],
  top_k: 20,
  ...overrides,
});

describe("hitFromPassage", () => {
  it("reads a Document as seed 001 does: relevance from metadata.relevance_score, 0 without", () => {
    const scored = hitFromPassage(
      new Document({
        id: "d1",
        pageContent: "The bridge opened in 1870.",
        metadata: { relevance_score: 0.8, source: "docs/bridge.md", retrieval_source: "lexical" },
      }),
      0,
    );
    expect(scored).toMatchObject({
      node_id: "d1",
      content: "The bridge opened in 1870.",
      score: 0.8,
      source: "lexical",
      sources: ["lexical"],
      document_id: "docs/bridge.md",
      position: 0,
    });
    // metadata.source is a file path here, not a retrieval source: the default applies.
    const unscored = hitFromPassage(
      new Document({ pageContent: "Ferries run hourly.", metadata: { source: "a.md" } }),
      2,
    );
    expect(unscored).toMatchObject({ node_id: "3", score: 0, source: "vector" });
  });

  it("reads {id, content, score} objects, clamping the score into [0, 1]", () => {
    expect(
      hitFromPassage({ id: "x", content: "c", score: 7 }, 0, { source: "memory" }),
    ).toMatchObject({ node_id: "x", score: 1, source: "memory" });
    expect(hitFromPassage({ content: "c", score: -1 }, 4)).toMatchObject({
      node_id: "5",
      score: 0,
    });
  });
});

describe("toRetriever", () => {
  it("runs a LangChain retriever with the node's config and cuts to top_k", async () => {
    const shelf = new ShelfRetriever(
      [0.9, 0.7, 0.4].map(
        (relevance_score, i) =>
          new Document({ id: `d${i}`, pageContent: `passage ${i}`, metadata: { relevance_score } }),
      ),
    );
    // The node's callbacks see the retriever's run: it shows under the node in a trace.
    const started: string[] = [];
    const retriever = toRetriever(
      shelf,
      {},
      {
        callbacks: [{ handleRetrieverStart: (_retriever, query) => void started.push(query) }],
      },
    );
    const result = await retriever(request({ top_k: 2 }));
    expect(result.fused_results.map((h) => [h.node_id, h.score])).toEqual([
      ["d0", 0.9],
      ["d1", 0.7],
    ]);
    expect(result.per_source.vector).toHaveLength(2);
    expect(started).toEqual(["bridge"]);
  });

  it("passes ragjudge's own retrieval result through, keeping its term statistics", async () => {
    const stats: QueryStats = { chunks: 10, terms: [{ term: "bridge", chunks: 2 }] };
    const own: Retriever = Object.assign(
      async () => ({ fused_results: [], per_source: {}, query_stats: stats }),
      { termStats: async () => stats },
    );
    const retriever = toRetriever(own);
    expect((await retriever(request())).query_stats).toBe(stats);
    expect(await retriever.termStats?.("c", ["bridge"])).toBe(stats);
  });
});
