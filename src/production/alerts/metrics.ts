// What an alert rule can watch, in words, with the range a threshold may take. The store measures
// each (store/alerts.ts, measureAlertMetric); this list is what people and webhooks read. A
// judge's mean joins it once monitors store judge results: a metric with a `judge` parameter.

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
};
