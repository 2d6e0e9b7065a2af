// Public face of rag/: the retrieval contract, and the loops of the built-in RAG bot.
// Append-only: each part of rag/ adds its own exports below.

// The built-in bot: ingest and ask over the database, for the CLI and the HTTP API.
export {
  type AskOptions,
  type BuiltinBot,
  type BuiltinBotOptions,
  createBuiltinBot,
  LONG_LIVED_BOT_CACHE_MS,
} from "./bot.js";
// rag/ingest: files (Markdown, text, HTML, PDF, JSONL) into a collection's chunks.
export * from "./ingest/index.js";
// rag/loops: seed 001's quality loop, seed 000's answer loop, ask.
export * from "./loops/index.js";
// rag/retrieval: lexical, vector and memory sources, question_router, RRF, rerank, createRetriever.
// Named, not `export *`: this questionRouter(query, available) is the public one; the loops'
// graph node of the same name stays reachable from rag/loops.
export {
  availableSources,
  BM25_DEFAULTS,
  Bm25Builder,
  Bm25Index,
  type Bm25Params,
  type CollectionRetriever,
  clearRetrievalIndexes,
  coverage,
  createRetriever,
  distinctRetrievalTokens,
  type FusedCandidate,
  type LexicalIndex,
  lexicalIndexFromRows,
  loadLexicalIndex,
  type MemoryHit,
  MemoryIndex,
  type ObservationInput,
  questionRouter,
  type RankedList,
  RERANK_DEFAULTS,
  type RerankedCandidate,
  type RerankSignals,
  type RetrievalConfig,
  type RetrievalConfigInput,
  RetrievalConfigSchema,
  type RetrieverOptions,
  RRF_K,
  reciprocalRankFusion,
  refreshLexicalIndex,
  rerank,
  retrievalTokens,
  type ScoredDocument,
  type SourceAvailability,
  type StoredObservation,
  type TermStats,
  type VectorHit,
  VectorIndex,
} from "./retrieval/index.js";
export * from "./types.js";
