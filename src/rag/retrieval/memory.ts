import { BM25_DEFAULTS, Bm25Builder, type Bm25Index, type Bm25Params } from "./bm25.js";
import { retrievalTokens } from "./tokens.js";

// The `memory` source: observational data of answers that passed before (one row per cited
// chunk). Past questions and answers are searched lexically; the chunks they cited are returned,
// ranked by how well the best citing observation matches the query, weighted by its score.

export interface ObservationInput {
  query: string;
  answer: string;
  node_id: string;
  score: number;
}

/** An observation as stored: its id orders them, so newer ones can be added to an index. */
export interface StoredObservation extends ObservationInput {
  id: number;
}

function observationTokens(observation: ObservationInput): string[] {
  return retrievalTokens(`${observation.query}\n${observation.answer}`);
}

function lastIdOf(
  observations: ReadonlyArray<ObservationInput | StoredObservation>,
  from: number,
): number {
  let last = from;
  for (const observation of observations) {
    if ("id" in observation && observation.id > last) last = observation.id;
  }
  return last;
}

export interface MemoryHit {
  node_id: string;
  /** idf-weighted share of the query's terms the observation contains, times its score. */
  match: number;
  /** BM25 of the best observation citing the chunk. */
  bm25: number;
  /** How many matching observations cite the chunk. */
  observations: number;
}

export class MemoryIndex {
  private constructor(
    private readonly bm25: Bm25Index,
    private readonly observations: readonly ObservationInput[],
    /** The largest stored id indexed (0 when built from inputs without ids). */
    readonly lastId: number,
  ) {}

  get size(): number {
    return this.observations.length;
  }

  static build(
    observations: ReadonlyArray<ObservationInput | StoredObservation>,
    params: Bm25Params = BM25_DEFAULTS,
  ): MemoryIndex {
    const builder = new Bm25Builder();
    for (const observation of observations) builder.add(observationTokens(observation));
    return new MemoryIndex(builder.build(params), [...observations], lastIdOf(observations, 0));
  }

  /**
   * This index plus newer observations (observations are only ever appended): their postings
   * are merged into a copy, nothing already indexed is tokenized again.
   */
  extend(newer: readonly StoredObservation[]): MemoryIndex {
    if (newer.length === 0) return this;
    const additions = this.bm25.additions();
    for (const observation of newer) additions.add(observationTokens(observation));
    return new MemoryIndex(
      this.bm25.extend(() => true, additions),
      [...this.observations, ...newer],
      lastIdOf(newer, this.lastId),
    );
  }

  /**
   * Chunks cited by the `candidates` best-matching observations, best first; `isKnown` drops
   * citations of chunks no longer in the collection.
   */
  search(
    queryTerms: readonly string[],
    k: number,
    options: { candidates: number; isKnown: (nodeId: string) => boolean },
  ): MemoryHit[] {
    const terms = [...new Set(queryTerms)];
    let totalIdf = 0;
    for (const term of terms) totalIdf += this.bm25.idf(term);
    const byChunk = new Map<string, MemoryHit>();
    for (const { doc, score } of this.bm25.search(terms, options.candidates)) {
      const observation = this.observations[doc];
      if (!observation || !options.isKnown(observation.node_id)) continue;
      let covered = 0;
      for (const term of terms) if (this.bm25.contains(doc, term)) covered += this.bm25.idf(term);
      const quality = Math.min(1, Math.max(0, observation.score));
      const match = totalIdf > 0 ? (covered / totalIdf) * quality : 0;
      const hit = byChunk.get(observation.node_id);
      if (!hit) {
        byChunk.set(observation.node_id, {
          node_id: observation.node_id,
          match,
          bm25: score,
          observations: 1,
        });
      } else {
        hit.observations++;
        if (match > hit.match) hit.match = match;
        if (score > hit.bm25) hit.bm25 = score;
      }
    }
    return [...byChunk.values()]
      .sort((a, b) => b.match - a.match || b.bm25 - a.bm25 || (a.node_id < b.node_id ? -1 : 1))
      .slice(0, k);
  }
}
