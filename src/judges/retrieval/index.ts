// Retrieval metrics (issue 26 §4): hit rate, recall, precision, MRR and nDCG of a bot's retrieved
// contexts against the relevant ids or reference texts a question carries.
export {
  type RankedEntry,
  RETRIEVAL_METRIC_NAMES,
  type RetrievalMetricName,
  type RetrievalMetrics,
  retrievalMetrics,
} from "./metrics.js";
export {
  judgeRelevance,
  type RelevanceJudgement,
  type RelevanceKey,
  type RetrievedContext,
  referenceContextId,
  textsMatch,
  WORD_OVERLAP_MATCH,
} from "./relevance.js";
