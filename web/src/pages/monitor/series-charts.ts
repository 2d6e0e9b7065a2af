// The monitor page's charts as data: each measure's line for this period beside the period
// before, and the table that goes with it. Pure, so the pairing of buckets is tested.

import type { ChartConfiguration } from "chart.js";
import type { ChartTable } from "../../components/Chart";

export interface SeriesPointLike {
  start: string;
}

export interface Line {
  label: string;
  values: (number | null)[];
  /** The period before: drawn dashed. */
  before?: boolean;
}

/** A bucket's label: its time of day for minutes and hours, its date for days. */
export function bucketLabel(start: string, bucket: string, language: string): string {
  const date = new Date(start);
  const locale = language === "zh" ? "zh-CN" : "en-GB";
  return bucket === "day"
    ? date.toLocaleDateString(locale, { month: "short", day: "numeric", timeZone: "UTC" })
    : date.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
}

export function lineChart(labels: string[], lines: Line[]): ChartConfiguration {
  return {
    type: "line",
    data: {
      labels,
      datasets: lines.map((line) => ({
        label: line.label,
        data: line.values,
        spanGaps: true,
        pointRadius: 0,
        borderWidth: 2,
        ...(line.before ? { borderDash: [5, 4] } : {}),
      })),
    },
    options: { scales: { y: { beginAtZero: true } }, plugins: { legend: { display: true } } },
  };
}

/** The chart's table: a row per bucket, a column per line. */
export function lineTable(firstColumn: string, labels: string[], lines: Line[]): ChartTable {
  return {
    columns: [firstColumn, ...lines.map((line) => line.label)],
    rows: labels.map((label, i) => [label, ...lines.map((line) => line.values[i] ?? "—")]),
  };
}
