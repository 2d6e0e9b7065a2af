// Retrieval metrics against known relevant items, by the TREC definitions with binary relevance
// (trec_eval's P.k, recall.k, recip_rank, ndcg_cut.k; ranx's hit_rate@k), for one question.
//
// The ranking is what the bot retrieved, in the order it gave (the order its generator saw):
// unlike trec_eval, which re-sorts a run by score and breaks ties by document id, tied scores keep
// the bot's order. A retrieved entry that repeats an earlier entry's key is dropped, as a TREC run
// (a map from id to score) cannot hold it twice. Each relevant item is credited once, at the first
// rank that matches it: a later entry matching only items already found (another chunk of a
// relevant document) keeps its rank but gains nothing.
//
//   gain(i)        1 when entry i matches a relevant item no earlier entry matched, else 0
//   hit_rate@k     1 when some entry in the top k has gain 1, else 0
//   recall@k       relevant items matched in the top k / relevant items
//   precision@k    entries with gain 1 in the top k / k (k, not the number retrieved, as P.k)
//   mrr            1 / rank of the first entry with gain 1 over the whole ranking, 0 when none
//   ndcg@k         Σ_{i≤k} gain(i) / log2(i + 1)  ÷  Σ_{i≤min(R, k)} 1 / log2(i + 1)

/** One retrieved entry: its key (the chunk id) and the relevant items it matches. */
export interface RankedEntry {
  key: string;
  /** Ids of the relevant items this entry matches (empty when it matches none). */
  matches: readonly string[];
}

export interface RetrievalMetrics {
  /** The cutoff of the @k metrics. */
  k: number;
  /** Relevant items the question names (R). */
  relevant: number;
  /** Distinct entries retrieved (after dropping repeated keys). */
  retrieved: number;
  /** Relevant items matched in the top k. */
  found: number;
  hit_rate: number;
  recall: number;
  precision: number;
  mrr: number;
  ndcg: number;
  /** Each relevant item found anywhere in the ranking, with the rank that first matched it. */
  matched: Array<{ id: string; rank: number }>;
}

/** The five metrics of one ranking against `relevant` items (their ids), cut at `k`. */
export function retrievalMetrics(
  ranking: readonly RankedEntry[],
  relevant: readonly string[],
  k: number,
): RetrievalMetrics {
  if (!Number.isInteger(k) || k < 1)
    throw new RangeError(`k must be a whole number >= 1, got ${k}`);
  const wanted = new Set(relevant);
  if (wanted.size === 0) throw new RangeError("no relevant items: the metrics are undefined");
  const entries = distinctByKey(ranking);
  const credited = new Set<string>();
  const matched: RetrievalMetrics["matched"] = [];
  let foundAtK = 0;
  let hitsAtK = 0;
  let firstHit = 0;
  let dcg = 0;
  entries.forEach((entry, index) => {
    const rank = index + 1;
    let gain = 0;
    for (const id of entry.matches) {
      if (!wanted.has(id) || credited.has(id)) continue;
      credited.add(id);
      matched.push({ id, rank });
      gain = 1;
    }
    if (gain === 0) return;
    if (firstHit === 0) firstHit = rank;
    if (rank > k) return;
    hitsAtK++;
    dcg += 1 / Math.log2(rank + 1);
    foundAtK = credited.size;
  });
  let idealDcg = 0;
  for (let rank = 1; rank <= Math.min(wanted.size, k); rank++) idealDcg += 1 / Math.log2(rank + 1);
  return {
    k,
    relevant: wanted.size,
    retrieved: entries.length,
    found: foundAtK,
    hit_rate: hitsAtK > 0 ? 1 : 0,
    recall: foundAtK / wanted.size,
    precision: hitsAtK / k,
    mrr: firstHit > 0 ? 1 / firstHit : 0,
    ndcg: dcg / idealDcg,
    matched,
  };
}

function distinctByKey(ranking: readonly RankedEntry[]): RankedEntry[] {
  const seen = new Set<string>();
  return ranking.filter((entry) => {
    if (seen.has(entry.key)) return false;
    seen.add(entry.key);
    return true;
  });
}

/** The names of the five metrics, in the order reports show them. */
export const RETRIEVAL_METRIC_NAMES = ["hit_rate", "recall", "precision", "mrr", "ndcg"] as const;
export type RetrievalMetricName = (typeof RETRIEVAL_METRIC_NAMES)[number];
