// What an alert rule can watch, in words, with the range a threshold may take. The store measures
// each (store/alerts.ts, measureAlertMetric); this list is what people and webhooks read. A
// judge's mean is the one metric with a parameter: the rule's `judge` (a monitor's judge), read
// from the monitors' per-minute judge rollups.

import { ALERT_METRICS, type AlertMetric } from "../../store/index.js";

export { ALERT_METRICS, type AlertMetric };

export interface AlertMetricInfo {
  /** The metric in a sentence: "gate pass rate". */
  words: string;
  /** What `count` counts. */
  counted: string;
  /** The threshold's bounds. */
  min: number;
  max: number;
  /** A value as a person reads it. */
  format(value: number): string;
}

const share = (value: number) => `${(value * 100).toFixed(1).replace(/\.0$/, "")}%`;

export const ALERT_METRIC_INFO: Record<AlertMetric, AlertMetricInfo> = {
  gate_pass_rate: {
    words: "gate pass rate",
    counted: "answers",
    min: 0,
    max: 1,
    format: share,
  },
  thumbs_down_share: {
    words: "share of thumbs down",
    counted: "thumbs",
    min: 0,
    max: 1,
    format: share,
  },
  latency_p95_ms: {
    words: "95th percentile latency",
    counted: "answers with a latency",
    min: 0,
    max: 3_600_000,
    format: (value) => `${Math.round(value)} ms`,
  },
  judge_mean: {
    words: "judge's mean score",
    counted: "judged answers",
    min: 0,
    max: 1,
    // Judges' scores are stored on [0, 1] (judges/result.ts); shown as a percentage like shares.
    format: share,
  },
};

/** The metric a rule watches in words, naming its judge: "mean score of the offline judge". */
export function ruleMetricWords(rule: { metric: AlertMetric; judge?: string | null }): string {
  if (rule.metric === "judge_mean" && rule.judge) return `mean score of the ${rule.judge} judge`;
  return ALERT_METRIC_INFO[rule.metric].words;
}
