// How a rule's numbers read and are typed: shares and judges' mean scores (0-1) as
// percentages, latency in milliseconds.

import type { NewAlertRule } from "./queries";

export type AlertMetric = NewAlertRule["metric"];
export type AlertJudge = NonNullable<NewAlertRule["judge"]>;

export const ALERT_METRICS: readonly AlertMetric[] = [
  "gate_pass_rate",
  "thumbs_down_share",
  "latency_p95_ms",
  "judge_mean",
];

/** The judges a judge_mean rule may watch: those monitors run. */
export const ALERT_JUDGES: readonly AlertJudge[] = [
  "offline",
  "token_precision",
  "review",
  "rubric",
];

export function isShare(metric: AlertMetric): boolean {
  return metric !== "latency_p95_ms";
}

/** A metric's value as a person reads it. */
export function formatAlertValue(metric: AlertMetric, value: number | null): string {
  if (value === null) return "—";
  if (isShare(metric)) return `${Number((value * 100).toFixed(1))}%`;
  return `${Math.round(value)} ms`;
}

/** The threshold typed in the form (a percentage for shares) as the API takes it. */
export function thresholdFromInput(metric: AlertMetric, typed: string): number {
  const value = Number(typed);
  return isShare(metric) ? value / 100 : value;
}

/** The comparison that usually makes sense: a pass rate or a judge's score falls, the others rise. */
export function defaultComparison(metric: AlertMetric): "below" | "above" {
  return metric === "gate_pass_rate" || metric === "judge_mean" ? "below" : "above";
}

/** Field errors from a 400's issues, by the field's first path segment. */
export function fieldErrors(body: unknown): Record<string, string> {
  const issues = (body as { issues?: { path: string; message: string }[] } | undefined)?.issues;
  const errors: Record<string, string> = {};
  for (const issue of issues ?? []) {
    const field = issue.path.split(".")[0] || "(body)";
    const key = field === "filter" ? issue.path : field;
    errors[key] ??= issue.message;
  }
  return errors;
}
