import { z } from "zod";

// The contract between retrieval (rag/retrieval) and the loops (rag/loops). Field names follow
// seed 001 (fused_results, source) and seed 004 (node_id, content, score, source).

/** Named retrieval sources; `memory` is observational data of answers that passed before. */
export const RETRIEVAL_SOURCES = ["lexical", "vector", "memory"] as const;
export const RetrievalSourceSchema = z.enum(RETRIEVAL_SOURCES);
export type RetrievalSource = z.infer<typeof RetrievalSourceSchema>;

/** One retrieved chunk, as it flows through fusion, reranking, grading and generation. */
export interface RetrievedHit {
  /** Stable chunk id (also what answers cite). */
  node_id: string;
  content: string;
  /** The final score after fusion and reranking, in [0, 1] (QualityChecker reads it as relevance). */
  score: number;
  /** The source that found it first (highest ranked); `sources` lists all that found it. */
  source: RetrievalSource;
  sources: RetrievalSource[];
  /** Every score it earned on the way: e.g. { bm25, lexical_rank, rrf, rerank }. */
  scores: Record<string, number>;
  document_id: string;
  /** The user's own id of the document (a JSONL line's `id`, a file's path), when known. */
  external_id?: string;
  title?: string;
  position: number;
  metadata: Record<string, unknown>;
}

export interface RetrieveRequest {
  collection_id: string;
  query: string;
  sources: readonly RetrievalSource[];
  top_k: number;
  signal?: AbortSignal;
}

/**
 * How much the query's terms narrow the collection: the QualityChecker's specificity reads it.
 * `chunks` is the collection's chunk count; each term lists the chunks containing it (0: absent).
 */
export interface QueryStats {
  chunks: number;
  terms: Array<{ term: string; chunks: number }>;
}

export interface RetrieveResult {
  /** Seed 001's state field: the fused, reranked top-k. */
  fused_results: RetrievedHit[];
  /** Each source's own ranked hits before fusion, for traces. */
  per_source: Partial<Record<RetrievalSource, RetrievedHit[]>>;
  /** The query's term statistics, when the retriever has a lexical index (the database one does). */
  query_stats?: QueryStats;
}

/** What the loops call to retrieve; rag/retrieval provides the real one over the database. */
export interface Retriever {
  (request: RetrieveRequest): Promise<RetrieveResult>;
  /**
   * How many of the collection's chunks contain each retrieval term (the BM25 index's df): the
   * offline rewriter weighs expansion terms by it. Optional: an in-memory retriever has none.
   */
  termStats?(
    collection_id: string,
    terms: readonly string[],
    signal?: AbortSignal,
  ): Promise<QueryStats>;
}
