// Public face of rag/retrieval: lexical, vector and memory sources, question_router, reciprocal
// rank fusion, the reranker, and createRetriever (the Retriever of rag/types.ts over the database).
export {
  BM25_DEFAULTS,
  Bm25Builder,
  Bm25Index,
  type Bm25Params,
  type ScoredDocument,
} from "./bm25.js";
export {
  type RetrievalConfig,
  type RetrievalConfigInput,
  RetrievalConfigSchema,
} from "./config.js";
export {
  type LexicalIndex,
  lexicalIndexFromRows,
  loadLexicalIndex,
  refreshLexicalIndex,
} from "./lexical.js";
export {
  type MemoryHit,
  MemoryIndex,
  type ObservationInput,
  type StoredObservation,
} from "./memory.js";
export {
  coverage,
  RERANK_DEFAULTS,
  type RerankedCandidate,
  type RerankSignals,
  rerank,
  type TermStats,
} from "./rerank.js";
export {
  type CollectionRetriever,
  clearRetrievalIndexes,
  createRetriever,
  type RetrieverOptions,
} from "./retriever.js";
export { availableSources, questionRouter, type SourceAvailability } from "./router.js";
export { type FusedCandidate, type RankedList, RRF_K, reciprocalRankFusion } from "./rrf.js";
export { distinctRetrievalTokens, retrievalTokens } from "./tokens.js";
export { type VectorHit, VectorIndex } from "./vector.js";
