import { RETRIEVAL_SOURCES, type RetrievalSource } from "../types.js";

// Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): score(d) = Σ 1 / (k + rank),
// rank 1-based in each source's list. k = 60 is the paper's value; it damps the difference
// between the first few ranks so no single source dominates.

export const RRF_K = 60;

export interface RankedList {
  source: RetrievalSource;
  /** Chunk ids, best first. */
  ids: readonly string[];
}

export interface FusedCandidate {
  node_id: string;
  rrf: number;
  /** The source that ranked it best (ties: lexical, vector, memory). */
  source: RetrievalSource;
  sources: RetrievalSource[];
  /** 1-based rank in each source that found it. */
  ranks: Partial<Record<RetrievalSource, number>>;
}

const SOURCE_ORDER = new Map(RETRIEVAL_SOURCES.map((source, i) => [source, i]));

/** Fuses ranked lists; best first, ties broken by best rank, then source order, then id. */
export function reciprocalRankFusion(lists: readonly RankedList[], k = RRF_K): FusedCandidate[] {
  const fused = new Map<string, FusedCandidate & { best: number }>();
  for (const list of lists) {
    list.ids.forEach((id, index) => {
      const rank = index + 1;
      let candidate = fused.get(id);
      if (!candidate) {
        candidate = {
          node_id: id,
          rrf: 0,
          source: list.source,
          sources: [],
          ranks: {},
          best: rank,
        };
        fused.set(id, candidate);
      }
      if (candidate.ranks[list.source] !== undefined) return;
      candidate.rrf += 1 / (k + rank);
      candidate.ranks[list.source] = rank;
      candidate.sources.push(list.source);
      const order = (source: RetrievalSource) => SOURCE_ORDER.get(source) ?? 0;
      if (
        rank < candidate.best ||
        (rank === candidate.best && order(list.source) < order(candidate.source))
      ) {
        candidate.best = rank;
        candidate.source = list.source;
      }
    });
  }
  return [...fused.values()]
    .sort(
      (a, b) =>
        b.rrf - a.rrf ||
        a.best - b.best ||
        (SOURCE_ORDER.get(a.source) ?? 0) - (SOURCE_ORDER.get(b.source) ?? 0) ||
        (a.node_id < b.node_id ? -1 : a.node_id > b.node_id ? 1 : 0),
    )
    .map(({ best: _best, ...candidate }) => {
      candidate.sources.sort((x, y) => (SOURCE_ORDER.get(x) ?? 0) - (SOURCE_ORDER.get(y) ?? 0));
      return candidate;
    });
}
