import type { FusedCandidate } from "./rrf.js";

// The reranker orders the fused list by relevance and gives each hit a score in [0, 1], which
// the QualityChecker of seed 001 reads as relevance (its thresholds are 0.5 and 0.7 on the
// top-3 average). Deterministic and cheap:
//
//   relevance = max(coverage, cosine, memory match)
//   coverage  = Σ idf(t) over query terms t the chunk contains / Σ idf(t) over all query terms
//   prior     = 1 / (1 + prior_decay × fused rank)          (fused rank 0-based)
//   score     = relevance × prior
//
// Coverage is what a reader checks first: does the passage mention what was asked, weighted so
// that rare terms count more than common ones. A term the collection never contains weighs
// fully and is covered nowhere, so a question about something absent scores low. Cosine lets a
// paraphrase found by the vector source count without sharing words. The prior keeps the fused
// consensus as a gentle tie-breaker: with the default 0.02, the 10th fused hit keeps 85%.

export const RERANK_DEFAULTS = {
  /** How many fused candidates are reranked; the rest are dropped. */
  depth: 50,
  prior_decay: 0.02,
} as const;

/** Term statistics of the collection, by chunk id. */
export interface TermStats {
  idf(term: string): number;
  contains(nodeId: string, term: string): boolean;
}

export interface RerankSignals {
  /** Cosine similarity from the vector source. */
  cosine?: number;
  /** Match of the memory source. */
  memory?: number;
}

export interface RerankedCandidate extends FusedCandidate {
  /** 0-based rank in the fused list. */
  fused_rank: number;
  coverage: number;
  relevance: number;
  prior: number;
  score: number;
}

/** Query-term coverage of a chunk, idf-weighted, in [0, 1]; 0 for a query without terms. */
export function coverage(nodeId: string, terms: readonly string[], stats: TermStats): number {
  let total = 0;
  let covered = 0;
  for (const term of new Set(terms)) {
    const weight = stats.idf(term);
    total += weight;
    if (stats.contains(nodeId, term)) covered += weight;
  }
  return total > 0 ? covered / total : 0;
}

const clamp01 = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);

export function rerank(
  fused: readonly FusedCandidate[],
  input: {
    terms: readonly string[];
    stats: TermStats;
    signals?: (nodeId: string) => RerankSignals;
    depth?: number;
    priorDecay?: number;
  },
): RerankedCandidate[] {
  const depth = input.depth ?? RERANK_DEFAULTS.depth;
  const decay = input.priorDecay ?? RERANK_DEFAULTS.prior_decay;
  return fused
    .slice(0, depth)
    .map((candidate, fusedRank) => {
      const signals = input.signals?.(candidate.node_id) ?? {};
      const cov = coverage(candidate.node_id, input.terms, input.stats);
      const relevance = Math.max(cov, clamp01(signals.cosine ?? 0), clamp01(signals.memory ?? 0));
      const prior = 1 / (1 + decay * fusedRank);
      return {
        ...candidate,
        fused_rank: fusedRank,
        coverage: cov,
        relevance,
        prior,
        score: relevance * prior,
      };
    })
    .sort((a, b) => b.score - a.score || a.fused_rank - b.fused_rank);
}
