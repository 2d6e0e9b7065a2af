import type { EvaluationSummary } from "../api/types";
import type { MessageKey } from "../i18n/strings";

// The five retrieval metrics as the pages name and order them (the run page and compare share it).

export const RETRIEVAL_METRICS = ["hit_rate", "recall", "precision", "mrr", "ndcg"] as const;
export type RetrievalMetric = (typeof RETRIEVAL_METRICS)[number];

export type RetrievalSummary = NonNullable<EvaluationSummary["retrieval"]>;

export const metricLabel = (metric: RetrievalMetric): MessageKey => `retrieval.${metric}`;
export const metricHelp = (metric: RetrievalMetric): MessageKey => `retrieval.help.${metric}`;

/**
 * A relevant item as a person reads it: an id as the user gave it, or for a reference passage
 * (stored as `context N`) its number, which the page words as "passage N".
 */
export function relevantItem(
  id: string,
  by: "ids" | "contexts",
): { kind: "id"; id: string } | { kind: "passage"; n: number } {
  const passage = by === "contexts" ? /^context (\d+)$/.exec(id) : null;
  return passage ? { kind: "passage", n: Number(passage[1]) } : { kind: "id", id };
}
