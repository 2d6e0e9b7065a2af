import type { EvaluationSummary } from "../../api/types";

// The compare page's radar series, from a run's summary: labels and values ready for a chart and
// its data table.

export interface Series {
  labels: string[];
  values: number[];
}

const RUBRIC_DIMENSIONS = ["accuracy", "completeness", "clarity"] as const;
const OFFLINE_METRICS = ["f1", "rouge_l", "groundedness", "exact_match"] as const;

/**
 * The radar's dimensions on [0, 1]: the rubric's accuracy, completeness and clarity (1-10, scaled)
 * from the rubric judge, or the offline judge's heuristic rubric when that is all there is, then
 * the offline metrics where they exist.
 */
export function radarSeries(summary: EvaluationSummary): Series {
  const labels: string[] = [];
  const values: number[] = [];
  const rubricSource = summary.judges.rubric ?? summary.judges.offline;
  for (const dimension of RUBRIC_DIMENSIONS) {
    const value = rubricSource?.metrics[dimension];
    if (typeof value === "number") {
      labels.push(dimension);
      values.push(value / 10);
    }
  }
  for (const metric of OFFLINE_METRICS) {
    const value = summary.judges.offline?.metrics[metric];
    if (typeof value === "number") {
      labels.push(metric);
      values.push(value);
    }
  }
  return { labels, values };
}
