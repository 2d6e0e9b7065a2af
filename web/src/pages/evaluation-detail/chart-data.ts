import type { EvaluationSummary, JudgeKind } from "../../api/types";

// The detail page's chart series, computed from the run's summary. Each returns labels and
// values ready for a chart and its data table.

export interface Series {
  labels: string[];
  values: number[];
}

const RUBRIC_DIMENSIONS = ["accuracy", "completeness", "clarity"] as const;
const OFFLINE_METRICS = ["f1", "rouge_l", "groundedness", "exact_match"] as const;
const JUDGE_ORDER: JudgeKind[] = ["rubric", "offline", "reference", "review"];

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

/** Bins of width 0.1 over [0, 1]; a score of exactly 1 falls in the last bin. */
export function scoreHistogram(scores: readonly number[]): Series {
  const values = new Array<number>(10).fill(0);
  for (const score of scores) {
    const bin = Math.min(9, Math.max(0, Math.floor(score * 10)));
    values[bin] = (values[bin] ?? 0) + 1;
  }
  const labels = values.map((_, i) => `${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}`);
  return { labels, values };
}

/** The first judge (in a fixed order) with a raw-score distribution: what the histogram bins. */
export function primaryDistribution(
  summary: EvaluationSummary,
): { judge: JudgeKind; series: Series } | undefined {
  for (const judge of JUDGE_ORDER) {
    const block = summary.judges[judge];
    if (!block || Object.keys(block.distribution).length === 0) continue;
    const keys = Object.keys(block.distribution).sort(
      (a, b) => Number(a) - Number(b) || a.localeCompare(b),
    );
    return { judge, series: { labels: keys, values: keys.map((k) => block.distribution[k] ?? 0) } };
  }
  return undefined;
}

export function byTypeSeries(summary: EvaluationSummary): {
  labels: string[];
  scores: (number | null)[];
  passRates: (number | null)[];
} {
  const labels = Object.keys(summary.by_question_type).sort();
  return {
    labels,
    scores: labels.map((l) => summary.by_question_type[l]?.average_score ?? null),
    passRates: labels.map((l) => summary.by_question_type[l]?.pass_rate ?? null),
  };
}
