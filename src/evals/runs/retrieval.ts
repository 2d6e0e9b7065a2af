import {
  judgeRelevance,
  type RelevanceKey,
  RETRIEVAL_METRIC_NAMES,
  type RetrievalMetricName,
  type RetrievalMetrics,
  retrievalMetrics,
} from "../../judges/index.js";
import type { BotSource } from "../bots/index.js";

// A run's retrieval metrics (issue 26 §4): per item from the bot's contexts and the question's
// relevant ids or reference texts, and their means over the run.

/** The cutoff of the @k metrics when a run does not name one: what most RAG prompts hold. */
export const DEFAULT_RETRIEVAL_K = 5;

/** What a result stores: the metrics, how relevance was known, and what was not found. */
export interface ItemRetrieval extends RetrievalMetrics {
  /** `ids`: the question's relevant_ids; `contexts`: its reference texts matched to chunks. */
  by: "ids" | "contexts";
  /** Relevant items no retrieved context matched. */
  missing: string[];
}

/** The item's retrieval metrics, or null when its question names nothing relevant. */
export function itemRetrieval(
  question: RelevanceKey,
  contexts: readonly BotSource[],
  k: number,
): ItemRetrieval | null {
  const judged = judgeRelevance(contexts, question);
  if (!judged) return null;
  const metrics = retrievalMetrics(judged.ranking, judged.relevant, k);
  const found = new Set(metrics.matched.map((m) => m.id));
  return {
    by: judged.by,
    ...metrics,
    missing: judged.relevant.filter((id) => !found.has(id)),
  };
}

export interface RetrievalSummary {
  /** Results with retrieval metrics (answered questions that name relevant items). */
  count: number;
  /** The cutoff, when every counted result used the same one (a run uses one). */
  k: number | null;
  /** Means over the counted results: hit_rate is the share with a hit in the top k. */
  means: Record<RetrievalMetricName, number>;
}

/** Means of the results' stored metrics; null when none has any. */
export function summarizeRetrieval(stored: readonly unknown[]): RetrievalSummary | null {
  const items = stored.filter(isStoredRetrieval);
  if (items.length === 0) return null;
  const ks = new Set(items.map((item) => item.k));
  const means = Object.fromEntries(
    RETRIEVAL_METRIC_NAMES.map((name) => [
      name,
      items.reduce((sum, item) => sum + item[name], 0) / items.length,
    ]),
  ) as Record<RetrievalMetricName, number>;
  return { count: items.length, k: ks.size === 1 ? (items[0]?.k ?? null) : null, means };
}

function isStoredRetrieval(value: unknown): value is RetrievalMetrics {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.k === "number" &&
    RETRIEVAL_METRIC_NAMES.every((name) => typeof record[name] === "number")
  );
}
