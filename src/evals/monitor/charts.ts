import type { JudgeKind } from "../../judges/index.js";
import { type CodedMessage, codedMessage } from "../../text/index.js";
import { type EvaluationSummary, type SummaryRow, summarizeResults } from "../runs/index.js";

// A run's chart data (seed 002's radar metrics, seed 003's result visualisation): rubric
// dimension averages for the radar, a histogram of primary scores, and per question type.

/** A dimension's scale: what the judge's own number runs over. */
type Scale = "1-10" | "1-5" | "0-1";

const DIMENSIONS: Partial<Record<JudgeKind, ReadonlyArray<readonly [string, Scale]>>> = {
  rubric: [
    ["accuracy", "1-10"],
    ["completeness", "1-10"],
    ["clarity", "1-10"],
  ],
  offline: [
    ["accuracy", "1-10"],
    ["completeness", "1-10"],
    ["clarity", "1-10"],
    ["exact_match", "0-1"],
    ["f1", "0-1"],
    ["rouge_l", "0-1"],
    ["groundedness", "0-1"],
  ],
  reference: [["score", "1-5"]],
  token_precision: [["token_precision", "0-1"]],
};

export interface RadarDimension {
  judge: JudgeKind;
  dimension: string;
  /** The mean on the judge's own scale. */
  mean: number;
  scale: Scale;
  /** The mean mapped onto [0, 1], so dimensions of different scales share one radar. */
  value: number;
}

export interface HistogramBin {
  /** Inclusive lower edge. */
  from: number;
  /** Exclusive upper edge, except the last bin, which includes 1. */
  to: number;
  count: number;
}

export interface EvaluationCharts {
  radar: RadarDimension[];
  histogram: {
    /** What is binned, in words (the UI shows it in its language). */
    binned: CodedMessage;
    bins: HistogramBin[];
    /** Results binned: SCORED ones with a score. */
    count: number;
    /** Results not binned: pending, running, bot and judge errors. */
    not_scored: number;
  };
  by_question_type: Array<{
    question_type: string;
    total: number;
    scored: number;
    average_score: number | null;
    pass_rate: number | null;
  }>;
}

export const HISTOGRAM_BINS = 10;

function unit(mean: number, scale: Scale): number {
  const value = scale === "1-10" ? (mean - 1) / 9 : scale === "1-5" ? (mean - 1) / 4 : mean;
  return Math.min(1, Math.max(0, value));
}

/** The radar's dimensions present in a summary: only judges that ran, only metrics they gave. */
export function radarOf(summary: EvaluationSummary): RadarDimension[] {
  const radar: RadarDimension[] = [];
  for (const [judge, dimensions] of Object.entries(DIMENSIONS) as Array<
    [JudgeKind, ReadonlyArray<readonly [string, Scale]>]
  >) {
    const metrics = summary.judges[judge]?.metrics ?? {};
    for (const [dimension, scale] of dimensions) {
      const mean = metrics[dimension];
      if (typeof mean !== "number") continue;
      radar.push({ judge, dimension, mean, scale, value: unit(mean, scale) });
    }
  }
  const review = summary.judges.review;
  if (review?.pass_rate !== null && review?.pass_rate !== undefined) {
    const rate = review.pass_rate;
    radar.push({ judge: "review", dimension: "passed", mean: rate, scale: "0-1", value: rate });
  }
  return radar;
}

export function histogramOf(rows: readonly SummaryRow[], bins = HISTOGRAM_BINS) {
  const counts = new Array<number>(bins).fill(0);
  let binned = 0;
  for (const row of rows) {
    if (row.status !== "SCORED" || row.score === null) continue;
    const score = Math.min(1, Math.max(0, row.score));
    counts[Math.min(bins - 1, Math.floor(score * bins))]! += 1;
    binned += 1;
  }
  return {
    binned: codedMessage("chart.histogram_binned", { bins, width: 1 / bins }),
    bins: counts.map((count, i) => ({ from: i / bins, to: (i + 1) / bins, count })),
    count: binned,
    not_scored: rows.length - binned,
  };
}

export function chartsOf(rows: readonly SummaryRow[]): EvaluationCharts {
  const summary = summarizeResults(rows);
  return {
    radar: radarOf(summary),
    histogram: histogramOf(rows),
    by_question_type: Object.entries(summary.by_question_type)
      .map(([question_type, stats]) => ({ question_type, ...stats }))
      .sort((a, b) => a.question_type.localeCompare(b.question_type)),
  };
}
