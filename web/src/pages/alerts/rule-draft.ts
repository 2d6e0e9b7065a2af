// The new-rule form's draft (text as typed) and the rule the API takes from it.

import {
  type AlertJudge,
  type AlertMetric,
  defaultComparison,
  thresholdFromInput,
} from "./alert-words";
import type { NewAlertRule } from "./queries";

export interface Draft {
  name: string;
  metric: AlertMetric;
  /** Sent only with judge_mean. */
  judge: AlertJudge;
  comparison: "below" | "above";
  threshold: string;
  window: string;
  minCount: string;
  cooldown: string;
  service: string;
  collection: string;
  model: string;
  webhook: string;
}

export const EMPTY_DRAFT: Draft = {
  name: "",
  metric: "gate_pass_rate",
  judge: "offline",
  comparison: "below",
  threshold: "90",
  window: "15",
  minCount: "50",
  cooldown: "60",
  service: "",
  collection: "",
  model: "",
  webhook: "",
};

export function ruleOf(draft: Draft): NewAlertRule {
  const filter: NewAlertRule["filter"] = {};
  if (draft.service.trim()) filter.service = draft.service.trim();
  if (draft.collection.trim()) filter.collection = draft.collection.trim();
  if (draft.model.trim()) filter.model = draft.model.trim();
  return {
    name: draft.name,
    metric: draft.metric,
    ...(draft.metric === "judge_mean" ? { judge: draft.judge } : {}),
    comparison: draft.comparison,
    threshold: thresholdFromInput(draft.metric, draft.threshold),
    window_minutes: Number(draft.window),
    min_count: Number(draft.minCount),
    cooldown_minutes: Number(draft.cooldown),
    filter,
    webhook_url: draft.webhook.trim(),
  };
}

/** What changes with the metric: the usual direction and a threshold that makes sense for it. */
export function draftForMetric(
  metric: AlertMetric,
): Pick<Draft, "metric" | "comparison" | "threshold"> {
  const usual: Record<AlertMetric, string> = {
    gate_pass_rate: "90",
    thumbs_down_share: "20",
    latency_p95_ms: "2000",
    judge_mean: "60",
  };
  const threshold = usual[metric];
  return { metric, comparison: defaultComparison(metric), threshold };
}
