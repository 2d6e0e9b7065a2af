import { z } from "zod";
import { BM25_DEFAULTS } from "./bm25.js";
import { RERANK_DEFAULTS } from "./rerank.js";
import { RRF_K } from "./rrf.js";

/** Retrieval settings; every default is documented in docs/rag.md. */
export const RetrievalConfigSchema = z.object({
  /** Reciprocal rank fusion constant (Cormack et al. 2009). */
  rrf_k: z.number().positive().default(RRF_K),
  /** Hits each source contributes to fusion. */
  candidates_per_source: z.number().int().min(1).max(1_000).default(50),
  /** Fused candidates the reranker scores; the rest are dropped. */
  rerank_depth: z.number().int().min(1).max(1_000).default(RERANK_DEFAULTS.depth),
  /** Position prior of the reranker: 1 / (1 + prior_decay × fused rank). */
  prior_decay: z.number().min(0).max(1).default(RERANK_DEFAULTS.prior_decay),
  bm25: z
    .object({
      k1: z.number().min(0).max(10).default(BM25_DEFAULTS.k1),
      b: z.number().min(0).max(1).default(BM25_DEFAULTS.b),
    })
    .prefault({}),
  /** Observations the memory source matches before collecting the chunks they cite. */
  memory_candidates: z.number().int().min(1).max(10_000).default(200),
});

export type RetrievalConfig = z.infer<typeof RetrievalConfigSchema>;
export type RetrievalConfigInput = z.input<typeof RetrievalConfigSchema>;
