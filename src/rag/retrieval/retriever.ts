import { LRUCache } from "lru-cache";
import type { LlmClient } from "../../llm/index.js";
import {
  type ChunkWithDocument,
  CollectionNotFoundError,
  chunkEmbeddingPages,
  type Db,
  getChunksWithDocuments,
  getCollectionVersion,
  observationPages,
} from "../../store/index.js";
import type {
  QueryStats,
  RetrievalSource,
  RetrievedHit,
  RetrieveRequest,
  RetrieveResult,
  Retriever,
} from "../types.js";
import {
  type RetrievalConfig,
  type RetrievalConfigInput,
  RetrievalConfigSchema,
} from "./config.js";
import { VersionedIndexCache } from "./index-cache.js";
import { type LexicalIndex, refreshLexicalIndex } from "./lexical.js";
import { MemoryIndex, type StoredObservation } from "./memory.js";
import { rerank } from "./rerank.js";
import { questionRouter, type SourceAvailability } from "./router.js";
import { type RankedList, reciprocalRankFusion } from "./rrf.js";
import { distinctRetrievalTokens } from "./tokens.js";
import { VectorIndex } from "./vector.js";

// Indexes are shared by every retriever over the same database handle (see index-cache.ts).
const lexicalIndexes = new VersionedIndexCache<LexicalIndex>();
const vectorIndexes = new VersionedIndexCache<VectorIndex>();
const memoryIndexes = new VersionedIndexCache<MemoryIndex>();

/** Forgets the in-memory indexes built over `db`. */
export function clearRetrievalIndexes(db: Db): void {
  lexicalIndexes.clear(db);
  vectorIndexes.clear(db);
  memoryIndexes.clear(db);
}

export interface RetrieverOptions {
  db: Db;
  workspaceId: string;
  /** The `embedder` role's client; without it the vector source is unavailable. */
  embedder?: LlmClient;
  config?: RetrievalConfigInput;
  /**
   * How long a collection's version may be reused before it is read again (ms, default 0: every
   * query reads it). Evaluation runs set it: their collection does not change under them, and the
   * read is a query per routing and per retrieval.
   */
  stateTtlMs?: number;
}

/** The contract's Retriever, plus what the question router needs to know about a collection. */
export interface CollectionRetriever extends Retriever {
  /** Which sources beyond lexical the collection can use; throws CollectionNotFoundError. */
  available(collectionId: string): Promise<SourceAvailability>;
  /**
   * questionRouter bound to a collection, in the loops' shape `(query, allowed)`: the sources
   * questionRouter picks from what the collection has, kept to those `allowed`.
   */
  routerFor(
    collectionId: string,
  ): (query: string, allowed: readonly RetrievalSource[]) => Promise<RetrievalSource[]>;
  /**
   * Drops the reused collection version (see stateTtlMs) of one collection, or of all: the next
   * query reads it again. Whoever changes a collection through this process calls it.
   */
  forget(collectionId?: string): void;
  readonly config: RetrievalConfig;
}

interface SourceHit {
  node_id: string;
  /** The source's own score, in [0, 1], for per_source traces. */
  score: number;
  scores: Record<string, number>;
}

/**
 * Retrieval over the database: the requested sources each rank chunks, reciprocal rank fusion
 * merges them, the reranker scores the fused list in [0, 1] and the top_k are returned with
 * every score they earned. Sources that cannot run (vector without an embedder, memory without
 * observations) contribute nothing.
 */
export function createRetriever(options: RetrieverOptions): CollectionRetriever {
  const { db, workspaceId, embedder } = options;
  const config = RetrievalConfigSchema.parse(options.config ?? {});
  // Indexes built with other BM25 parameters are other indexes.
  const bm25Key = `${config.bm25.k1}/${config.bm25.b}`;

  const stateTtlMs = options.stateTtlMs ?? 0;
  // Each collection's version, read once per stateTtlMs; concurrent queries share one read, and a
  // failed read is forgotten.
  const states =
    stateTtlMs > 0
      ? new LRUCache<string, CollectionVersion>({
          max: 256,
          ttl: stateTtlMs,
          fetchMethod: (collectionId) => readState(collectionId),
        })
      : undefined;
  async function readState(collectionId: string) {
    const state = await getCollectionVersion(db, workspaceId, collectionId);
    if (!state) throw new CollectionNotFoundError(collectionId);
    return state;
  }
  async function collectionState(collectionId: string): Promise<CollectionVersion> {
    return (await states?.fetch(collectionId)) ?? readState(collectionId);
  }

  // Chunk rows already fetched, by collection, version and id: a run asks many similar questions,
  // and a chunk's content never changes under its id within a version (`npm run bench -- rag`, PGlite:
  // 82% of fetches skipped, 2.4-3.0 ms of CPU per ask against 4.1-4.9 ms without). Bounded by maxSize rather than max: a `max` cache allocates its slots up front (430 KB at
  // 20,000), and there is a retriever per bot.
  const chunkCache = new LRUCache<string, ChunkWithDocument>({
    maxSize: CHUNK_CACHE_ROWS,
    sizeCalculation: () => 1,
  });
  async function chunkRows(
    collectionId: string,
    version: number,
    ids: readonly string[],
  ): Promise<Map<string, ChunkWithDocument>> {
    const keyOf = (id: string) => `${collectionId}\n${version}\n${id}`;
    const missing = ids.filter((id) => !chunkCache.has(keyOf(id)));
    if (missing.length > 0) {
      for (const row of await getChunksWithDocuments(db, workspaceId, collectionId, missing))
        chunkCache.set(keyOf(row.id), row);
    }
    const rows = new Map<string, ChunkWithDocument>();
    for (const id of ids) {
      const row = chunkCache.get(keyOf(id));
      if (row) rows.set(id, row);
    }
    return rows;
  }

  function lexicalIndexFor(collectionId: string, version: number): Promise<LexicalIndex> {
    return lexicalIndexes.get(db, `${collectionId}\n${bm25Key}`, String(version), (previous) =>
      refreshLexicalIndex(db, workspaceId, collectionId, previous, config.bm25),
    );
  }

  async function termStats(
    collectionId: string,
    terms: readonly string[],
    signal?: AbortSignal,
  ): Promise<QueryStats> {
    signal?.throwIfAborted();
    const state = await collectionState(collectionId);
    const lexical = await lexicalIndexFor(collectionId, state.version);
    return queryStatsOf(lexical, terms);
  }

  async function retrieve(request: RetrieveRequest): Promise<RetrieveResult> {
    const { signal } = request;
    signal?.throwIfAborted();
    const collectionId = request.collection_id;
    const state = await collectionState(collectionId);
    const wants = new Set<RetrievalSource>(request.sources);
    const terms = distinctRetrievalTokens(request.query);
    const depth = config.candidates_per_source;

    // The embedding request goes out first; the lexical work overlaps it.
    const vectorHits =
      wants.has("vector") && embedder
        ? searchVector(embedder, collectionId, state.version, request.query, depth, signal)
        : undefined;
    // Built even when lexical is not requested: the reranker reads its term statistics.
    const lexical = await lexicalIndexFor(collectionId, state.version);

    const perSource = new Map<RetrievalSource, SourceHit[]>();
    if (wants.has("lexical")) {
      const hits = lexical.search(terms, depth);
      const top = hits[0]?.bm25 ?? 0;
      perSource.set(
        "lexical",
        hits.map((hit, i) => ({
          node_id: hit.node_id,
          score: top > 0 ? hit.bm25 / top : 0,
          scores: { bm25: hit.bm25, lexical_rank: i + 1 },
        })),
      );
    }
    if (wants.has("memory") && state.observation_count > 0) {
      const memory = await memoryIndexes.get(
        db,
        `${collectionId}\n${bm25Key}`,
        String(state.observation_count),
        (previous) => loadMemoryIndex(collectionId, previous),
      );
      const hits = memory.search(terms, depth, {
        candidates: config.memory_candidates,
        isKnown: (id) => lexical.has(id),
      });
      perSource.set(
        "memory",
        hits.map((hit, i) => ({
          node_id: hit.node_id,
          score: hit.match,
          scores: {
            memory: hit.match,
            memory_bm25: hit.bm25,
            memory_observations: hit.observations,
            memory_rank: i + 1,
          },
        })),
      );
    }
    if (vectorHits) perSource.set("vector", await vectorHits);
    signal?.throwIfAborted();

    const lists: RankedList[] = [...perSource].map(([source, hits]) => ({
      source,
      ids: hits.map((hit) => hit.node_id),
    }));
    const sourceScores = new Map<string, Record<string, number>>();
    for (const hits of perSource.values()) {
      for (const hit of hits)
        sourceScores.set(hit.node_id, { ...sourceScores.get(hit.node_id), ...hit.scores });
    }
    const fused = reciprocalRankFusion(lists, config.rrf_k);
    const reranked = rerank(fused, {
      terms,
      stats: lexical,
      depth: config.rerank_depth,
      priorDecay: config.prior_decay,
      signals: (id) => {
        const scores = sourceScores.get(id);
        return {
          ...(scores?.cosine !== undefined ? { cosine: scores.cosine } : {}),
          ...(scores?.memory !== undefined ? { memory: scores.memory } : {}),
        };
      },
    });
    const topK = Math.max(0, Math.floor(request.top_k));
    const top = reranked.slice(0, topK);

    // One fetch for the returned hits and the per-source traces (each cut to top_k).
    const traceLimit = Math.max(topK, 1);
    const wanted = new Set(top.map((hit) => hit.node_id));
    for (const hits of perSource.values())
      for (const hit of hits.slice(0, traceLimit)) wanted.add(hit.node_id);
    const rows = await chunkRows(collectionId, state.version, [...wanted]);

    const fused_results: RetrievedHit[] = [];
    for (const candidate of top) {
      const row = rows.get(candidate.node_id);
      if (!row) continue; // removed since the index was built
      fused_results.push(
        toHit(row, {
          score: candidate.score,
          source: candidate.source,
          sources: candidate.sources,
          scores: {
            ...sourceScores.get(candidate.node_id),
            rrf: candidate.rrf,
            fused_rank: candidate.fused_rank + 1,
            coverage: candidate.coverage,
            relevance: candidate.relevance,
            prior: candidate.prior,
            rerank: candidate.score,
          },
        }),
      );
    }
    const per_source: RetrieveResult["per_source"] = {};
    for (const [source, hits] of perSource) {
      per_source[source] = hits.slice(0, traceLimit).flatMap((hit) => {
        const row = rows.get(hit.node_id);
        return row
          ? [toHit(row, { score: hit.score, source, sources: [source], scores: hit.scores })]
          : [];
      });
    }
    return { fused_results, per_source, query_stats: queryStatsOf(lexical, terms) };
  }

  async function searchVector(
    client: LlmClient,
    collectionId: string,
    version: number,
    query: string,
    k: number,
    signal: AbortSignal | undefined,
  ): Promise<SourceHit[]> {
    const [embedded, index] = await Promise.all([
      client.embed({ input: [query], ...(signal ? { signal } : {}) }),
      vectorIndexes.get(db, `${collectionId}\n${client.model}`, String(version), async () => {
        const rows: Array<{ id: string; embedding: number[] }> = [];
        for await (const page of chunkEmbeddingPages(db, workspaceId, collectionId, client.model))
          rows.push(...page);
        return VectorIndex.fromRows(rows);
      }),
    ]);
    const vector = embedded.embeddings[0];
    if (!vector) return [];
    return index.search(vector, k).map((hit, i) => ({
      node_id: hit.node_id,
      score: Math.max(0, hit.cosine),
      scores: { cosine: hit.cosine, vector_rank: i + 1 },
    }));
  }

  /** Observations are append-only: an earlier index is extended with the newer ones. */
  async function loadMemoryIndex(
    collectionId: string,
    previous: MemoryIndex | undefined,
  ): Promise<MemoryIndex> {
    const newer: StoredObservation[] = [];
    const afterId = previous?.lastId ?? 0;
    for await (const page of observationPages(db, workspaceId, collectionId, { afterId })) {
      for (const row of page) {
        newer.push({
          id: row.id,
          query: row.query,
          answer: row.answer,
          node_id: row.node_id,
          score: row.score,
        });
      }
    }
    return previous ? previous.extend(newer) : MemoryIndex.build(newer, config.bm25);
  }

  async function available(collectionId: string): Promise<SourceAvailability> {
    const state = await collectionState(collectionId);
    return { vector: embedder !== undefined, memory: state.observation_count > 0 };
  }

  return Object.assign(retrieve, {
    config,
    available,
    termStats,
    forget(collectionId?: string) {
      if (collectionId === undefined) states?.clear();
      else states?.delete(collectionId);
    },
    routerFor(collectionId: string) {
      return async (query: string, allowed: readonly RetrievalSource[]) => {
        const routed = questionRouter(query, await available(collectionId));
        return routed.filter((source) => allowed.includes(source));
      };
    },
  });
}

function queryStatsOf(lexical: LexicalIndex, terms: readonly string[]): QueryStats {
  return {
    chunks: lexical.bm25.size,
    terms: terms.map((term) => ({ term, chunks: lexical.bm25.documentFrequency(term) })),
  };
}

type CollectionVersion = NonNullable<Awaited<ReturnType<typeof getCollectionVersion>>>;

/** Chunk rows kept, least recently used first out. */
const CHUNK_CACHE_ROWS = 20_000;

function toHit(
  row: ChunkWithDocument,
  fields: Pick<RetrievedHit, "score" | "source" | "sources" | "scores">,
): RetrievedHit {
  return {
    node_id: row.id,
    content: row.content,
    score: fields.score,
    source: fields.source,
    sources: fields.sources,
    scores: fields.scores,
    document_id: row.document_id,
    external_id: row.external_id,
    title: row.title,
    position: row.position,
    metadata: { ...row.document_metadata, ...row.metadata, document_source: row.source },
  };
}
