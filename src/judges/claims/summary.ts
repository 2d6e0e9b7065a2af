// Many answers' claims verdicts as one RAGChecker report, with the words a person reads beside
// each metric. The CLI, the run summary and the reports all read it, so they cannot disagree.

import {
  CLAIM_METRIC_GROUPS,
  type ClaimMetrics,
  type ClaimMetricsReport,
  reportClaimMetrics,
} from "./metrics.js";

/** Each metric in plain words, as the CLI and the reports print it. */
export const CLAIM_METRIC_LABELS: Record<keyof ClaimMetrics, string> = {
  precision: "precision",
  recall: "recall",
  f1: "F1",
  claim_recall: "claim recall",
  context_precision: "context precision",
  context_utilization: "context utilisation",
  noise_sensitivity_in_relevant: "noise sensitivity (relevant chunks)",
  noise_sensitivity_in_irrelevant: "noise sensitivity (irrelevant chunks)",
  hallucination: "hallucination",
  self_knowledge: "self-knowledge",
  faithfulness: "faithfulness",
};

export const CLAIM_GROUP_LABELS: Record<keyof ClaimMetricsReport, string> = {
  overall: "overall",
  retriever: "retriever",
  generator: "generator",
};

export interface ClaimsSummary {
  /** Answers whose claims were judged. */
  count: number;
  /** RAGChecker's report over them (means × 100, one decimal); null for none. */
  report: ClaimMetricsReport | null;
  /** The approximation's words when any verdict is offline, else null. */
  approximate: string | null;
}

/** What a stored or fresh claims verdict holds that the summary reads; anything else is skipped. */
function metricsOf(verdict: unknown): { metrics: ClaimMetrics; approximate: string | null } | null {
  if (typeof verdict !== "object" || verdict === null) return null;
  const { metrics, approximate } = verdict as { metrics?: unknown; approximate?: unknown };
  if (typeof metrics !== "object" || metrics === null) return null;
  for (const group of Object.values(CLAIM_METRIC_GROUPS)) {
    for (const key of group) {
      if (typeof (metrics as Record<string, unknown>)[key] !== "number") return null;
    }
  }
  return {
    metrics: metrics as ClaimMetrics,
    approximate: typeof approximate === "string" ? approximate : null,
  };
}

/** The report over the verdicts of the claims judges' scored results. */
export function claimsSummary(verdicts: readonly unknown[]): ClaimsSummary {
  const read = verdicts.flatMap((verdict) => {
    const parsed = metricsOf(verdict);
    return parsed ? [parsed] : [];
  });
  return {
    count: read.length,
    report: reportClaimMetrics(read.map((item) => item.metrics)),
    approximate: read.find((item) => item.approximate !== null)?.approximate ?? null,
  };
}

/** The report as rows of (group, metric, value), in RAGChecker's order, for a table. */
export function claimReportRows(report: ClaimMetricsReport): [string, string, number][] {
  return (Object.keys(CLAIM_METRIC_GROUPS) as (keyof ClaimMetricsReport)[]).flatMap((group) =>
    CLAIM_METRIC_GROUPS[group].map((key): [string, string, number] => [
      CLAIM_GROUP_LABELS[group],
      CLAIM_METRIC_LABELS[key],
      (report[group] as Record<string, number>)[key] as number,
    ]),
  );
}
