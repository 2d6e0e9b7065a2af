import { expect, it } from "vitest";
import type { RecordedRequest } from "../../../test/support/scripted-llm.js";
import { describeEachStore } from "../../../test/support/stores.js";
import { scriptedClient, useScriptedLlm } from "../../../test/support/use-scripted-llm.js";
import {
  appendObservations,
  CollectionNotFoundError,
  type Db,
  findOrCreateUser,
} from "../../store/index.js";
import { ingestDocuments, ingestPaths } from "../ingest/index.js";
import type { RetrievedHit } from "../types.js";
import { createRetriever } from "./retriever.js";

const CORPUS = new URL("../../../examples/corpus/", import.meta.url).pathname;

// A toy embedding: one dimension per topic, so a paraphrase ("streetcar") lands near the chunks
// about trams without sharing a word with them.
const TOPICS = [
  ["tram", "streetcar", "metro", "ferry", "bridge"],
  ["flood", "洪水", "防洪", "tidewall"],
  ["salt", "盐"],
];
function topicVector(text: string): number[] {
  const lower = text.toLowerCase();
  return [...TOPICS.map((words) => words.filter((w) => lower.includes(w)).length), 0.05];
}

const llm = useScriptedLlm({
  rules: [
    {
      when: (request: RecordedRequest) => request.path.endsWith("/embeddings"),
      reply: (request: RecordedRequest) => ({
        embeddings: (request.body.input as string[]).map(topicVector),
      }),
    },
  ],
});

function embedder() {
  return scriptedClient(llm, "embedder");
}

async function corpus(db: Db, workspaceId: string, withEmbedder = false) {
  const result = await ingestPaths({
    db,
    workspaceId,
    collection: "lanting",
    paths: [CORPUS],
    ...(withEmbedder ? { embedder: embedder() } : {}),
  });
  return result.collection_id;
}

/** The top hit's id. */
function topId(result: { fused_results: RetrievedHit[] }): string {
  const id = result.fused_results[0]?.node_id;
  if (!id) throw new Error("no hit");
  return id;
}

function expectWellFormed(hits: RetrievedHit[]) {
  for (let i = 0; i < hits.length; i++) {
    const hit = hits[i] as RetrievedHit;
    expect(hit.score).toBeGreaterThanOrEqual(0);
    expect(hit.score).toBeLessThanOrEqual(1);
    if (i > 0) expect(hit.score).toBeLessThanOrEqual(hits[i - 1]?.score ?? 1);
    expect(hit.node_id).toBe(`${hit.document_id}#${hit.position}`);
    expect(hit.sources).toContain(hit.source);
    expect(hit.scores.rerank).toBe(hit.score);
    expect(typeof hit.scores.rrf).toBe("number");
    expect(typeof hit.metadata.document_source).toBe("string");
  }
}

describeEachStore("createRetriever", (use) => {
  it("finds the passage that answers an English and a Chinese question", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const collection_id = await corpus(db, user.id);
    const retrieve = createRetriever({ db, workspaceId: user.id });
    expect(await retrieve.available(collection_id)).toEqual({ vector: false, memory: false });

    const english = await retrieve({
      collection_id,
      query: "When did the last tram run in Lanting?",
      sources: ["lexical"],
      top_k: 5,
    });
    expect(english.fused_results.length).toBeGreaterThan(0);
    expect(english.fused_results.length).toBeLessThanOrEqual(5);
    expectWellFormed(english.fused_results);
    const [top] = english.fused_results;
    expect(top?.content).toContain("The last tram ran in 1971");
    expect(top?.title).toBe("Getting around Lanting");
    expect(top?.metadata.document_source).toMatch(/lanting-transport\.md$/);
    expect(top).toMatchObject({ source: "lexical", sources: ["lexical"] });
    expect(top?.scores).toMatchObject({
      lexical_rank: expect.any(Number),
      bm25: expect.any(Number),
    });
    expect(top?.score).toBeGreaterThan(0.7);
    expect(english.per_source.lexical?.length).toBeGreaterThan(0);
    expect(english.per_source.vector).toBeUndefined();

    const chinese = await retrieve({
      collection_id,
      query: "新防洪堤全长多少公里？",
      sources: ["lexical"],
      top_k: 3,
    });
    expectWellFormed(chinese.fused_results);
    expect(chinese.fused_results[0]?.content).toContain("11.8公里");

    const festival = await retrieve({
      collection_id,
      query: "盐灯节在哪里举行",
      sources: ["lexical"],
      top_k: 3,
    });
    expect(festival.fused_results[0]?.content).toContain("老码头");
  });

  it("scores a question about something the collection lacks low", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const collection_id = await corpus(db, user.id);
    const retrieve = createRetriever({ db, workspaceId: user.id });
    const result = await retrieve({
      collection_id,
      query: "What is the population of Tokyo's Shinjuku ward?",
      sources: ["lexical"],
      top_k: 3,
    });
    for (const hit of result.fused_results) expect(hit.score).toBeLessThan(0.5);
  });

  it("sees ingested content on the next query (the index follows the collection version)", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const collection_id = await corpus(db, user.id);
    const retrieve = createRetriever({ db, workspaceId: user.id });
    const query = {
      collection_id,
      query: "zeppelin mooring mast",
      sources: ["lexical"] as const,
      top_k: 3,
    };
    expect((await retrieve(query)).fused_results).toEqual([]);
    await ingestDocuments({
      db,
      workspaceId: user.id,
      collection: { id: collection_id },
      documents: [
        {
          source: "airship.txt",
          kind: "text",
          title: "Airships",
          blocks: [{ text: "A zeppelin mooring mast stood on Gull Point from 1929 to 1937." }],
          metadata: {},
        },
      ],
    });
    const after = await retrieve(query);
    expect(after.fused_results[0]?.content).toContain("zeppelin");
    expect(after.fused_results[0]?.score).toBeCloseTo(1, 6);
  });

  it("treats another user's collection as not found", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const bob = await findOrCreateUser(db, "bob");
    const collection_id = await corpus(db, alice.id);
    const retrieve = createRetriever({ db, workspaceId: bob.id });
    await expect(
      retrieve({ collection_id, query: "tram", sources: ["lexical"], top_k: 3 }),
    ).rejects.toBeInstanceOf(CollectionNotFoundError);
    await expect(retrieve.available(collection_id)).rejects.toBeInstanceOf(CollectionNotFoundError);
    await expect(
      retrieve({ collection_id: "nope", query: "tram", sources: ["lexical"], top_k: 3 }),
    ).rejects.toBeInstanceOf(CollectionNotFoundError);
  });

  it("returns chunks cited by passing answers through the memory source", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const collection_id = await corpus(db, user.id);
    const retrieve = createRetriever({ db, workspaceId: user.id });
    const shipyard = (
      await retrieve({
        collection_id,
        query: "Jade River Shipyard employs 11,500 people",
        sources: ["lexical"],
        top_k: 1,
      })
    ).fused_results[0];
    expect(shipyard?.content).toContain("11,500");
    await appendObservations(db, [
      {
        workspace_id: user.id,
        collection_id,
        query: "Who is the biggest employer in town?",
        answer: "The Jade River Shipyard, with about 11,500 people.",
        node_id: shipyard?.node_id ?? "",
        score: 0.95,
      },
    ]);
    expect(await retrieve.available(collection_id)).toEqual({ vector: false, memory: true });
    const router = retrieve.routerFor(collection_id);
    expect(await router("biggest employer", ["lexical", "vector", "memory"])).toEqual([
      "lexical",
      "memory",
    ]);

    const result = await retrieve({
      collection_id,
      query: "biggest employer",
      sources: ["lexical", "memory"],
      top_k: 5,
    });
    expectWellFormed(result.fused_results);
    expect(result.per_source.memory?.map((hit) => hit.node_id)).toEqual([shipyard?.node_id]);
    const hit = result.fused_results.find((h) => h.node_id === shipyard?.node_id);
    expect(hit?.sources).toContain("memory");
    expect(hit?.scores.memory).toBeCloseTo(0.95, 6);

    // A later observation is seen by the next retrieval (the memory index is extended).
    const tram = topId(
      await retrieve({ collection_id, query: "last tram 1971", sources: ["lexical"], top_k: 1 }),
    );
    await appendObservations(db, [
      {
        workspace_id: user.id,
        collection_id,
        query: "When were streetcars replaced?",
        answer: "In 1971, by buses.",
        node_id: tram,
        score: 0.8,
      },
    ]);
    const later = await retrieve({
      collection_id,
      query: "streetcars replaced",
      sources: ["memory"],
      top_k: 3,
    });
    expect(later.per_source.memory?.map((h) => h.node_id)).toEqual([tram]);
  });

  it("fuses the vector source when an embedder is configured", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const collection_id = await corpus(db, user.id, true);
    const retrieve = createRetriever({ db, workspaceId: user.id, embedder: embedder() });
    expect(await retrieve.available(collection_id)).toEqual({ vector: true, memory: false });

    // No chunk says "streetcar": only the vector source can find the trams.
    const result = await retrieve({
      collection_id,
      query: "streetcar",
      sources: ["lexical", "vector"],
      top_k: 3,
    });
    expect(result.per_source.lexical).toEqual([]);
    expect(result.per_source.vector?.length).toBe(3);
    expectWellFormed(result.fused_results);
    const [top] = result.fused_results;
    expect(top?.source).toBe("vector");
    expect(top?.scores.cosine).toBeGreaterThan(0.5);
    expect(top?.content.toLowerCase()).toMatch(/tram|metro|ferry|bridge/);

    // Without an embedder the vector source contributes nothing.
    const lexicalOnly = createRetriever({ db, workspaceId: user.id });
    const none = await lexicalOnly({
      collection_id,
      query: "streetcar",
      sources: ["vector"],
      top_k: 3,
    });
    expect(none).toEqual({
      fused_results: [],
      per_source: {},
      // The lexical index is read for the reranker anyway: the query's statistics come with it.
      query_stats: { chunks: expect.any(Number), terms: [{ term: "streetcar", chunks: 0 }] },
    });
  });

  it("stops when the request is aborted", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const collection_id = await corpus(db, user.id);
    const retrieve = createRetriever({ db, workspaceId: user.id });
    await expect(
      retrieve({
        collection_id,
        query: "tram",
        sources: ["lexical"],
        top_k: 3,
        signal: AbortSignal.abort(),
      }),
    ).rejects.toThrow(/abort/i);
  });
});
