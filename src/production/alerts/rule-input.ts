// An alert rule as a person sends it: every field bounded, each refusal naming its field.

import { z } from "zod";
import { MONITOR_JUDGES } from "../monitors/definition.js";
import { ALERT_METRIC_INFO, ALERT_METRICS, type AlertMetric } from "./metrics.js";

export const ALERT_RULE_LIMITS = {
  window_minutes: { min: 1, max: 1440 },
  min_count: { min: 1, max: 1_000_000 },
  cooldown_minutes: { min: 0, max: 10_080 },
} as const;

/** An http(s) URL without user:password (URLs are shown; credentials would be too). */
const WebhookUrlSchema = z
  .url({ protocol: /^https?$/, error: "an http(s) URL", abort: true })
  .max(2000)
  .refine((url) => !new URL(url).username && !new URL(url).password, {
    error: "no credentials in the URL: the receiver checks the signature instead",
  });

const filterText = z.string().trim().min(1).max(200);

export const AlertFilterSchema = z
  .object({
    service: filterText.optional().describe("only answers of this service"),
    collection: filterText.optional().describe("only answers from this collection"),
    model: filterText.optional().describe("only answers by this model"),
  })
  .strict();

const fields = {
  name: z.string().trim().min(1).max(100),
  metric: z.enum(ALERT_METRICS).describe(`what to watch: ${ALERT_METRICS.join(", ")}`),
  judge: z
    .enum(MONITOR_JUDGES)
    .describe("judge_mean only: the judge whose mean score is watched (a monitor's judge)"),
  comparison: z.enum(["below", "above"]).describe("fire when the value is below or above"),
  threshold: z
    .number()
    .finite()
    .describe("0-1 for rates, shares and judges' scores, milliseconds for latency"),
  window_minutes: z
    .number()
    .int()
    .min(ALERT_RULE_LIMITS.window_minutes.min)
    .max(ALERT_RULE_LIMITS.window_minutes.max)
    .describe("the window measured, ending now"),
  min_count: z
    .number()
    .int()
    .min(ALERT_RULE_LIMITS.min_count.min)
    .max(ALERT_RULE_LIMITS.min_count.max)
    .describe("never fire on fewer answers (or thumbs) than this in the window"),
  filter: AlertFilterSchema,
  webhook_url: WebhookUrlSchema,
  cooldown_minutes: z
    .number()
    .int()
    .min(ALERT_RULE_LIMITS.cooldown_minutes.min)
    .max(ALERT_RULE_LIMITS.cooldown_minutes.max)
    .describe("after a firing, no new firing of this rule for this long"),
  enabled: z.boolean(),
};

/** Why a threshold does not fit its metric (a share is 0-1, a latency 0-1 hour), or undefined. */
export function thresholdProblem(metric: AlertMetric, threshold: number): string | undefined {
  const { min, max, words } = ALERT_METRIC_INFO[metric];
  return threshold < min || threshold > max
    ? `the ${words} is between ${min} and ${max}`
    : undefined;
}

/** Why a rule's judge does not fit its metric (judge_mean needs one, the others take none). */
export function judgeProblem(
  metric: AlertMetric,
  judge: string | null | undefined,
): string | undefined {
  if (metric === "judge_mean") {
    return judge
      ? undefined
      : `a judge's mean names its judge: one of ${MONITOR_JUDGES.join(", ")}`;
  }
  return judge ? "only a judge's mean (metric judge_mean) names a judge" : undefined;
}

function thresholdFits(rule: { metric?: AlertMetric; threshold?: number }, ctx: z.RefinementCtx) {
  if (rule.metric === undefined || rule.threshold === undefined) return;
  const problem = thresholdProblem(rule.metric, rule.threshold);
  if (problem) ctx.addIssue({ code: "custom", path: ["threshold"], message: problem });
}

function judgeFits(rule: { metric?: AlertMetric; judge?: string }, ctx: z.RefinementCtx) {
  if (rule.metric === undefined) return;
  const problem = judgeProblem(rule.metric, rule.judge);
  if (problem) ctx.addIssue({ code: "custom", path: ["judge"], message: problem });
}

export const AlertRuleInputSchema = z
  .object({
    ...fields,
    judge: fields.judge.optional(),
    window_minutes: fields.window_minutes.default(15),
    min_count: fields.min_count.default(50),
    filter: fields.filter.default({}),
    cooldown_minutes: fields.cooldown_minutes.default(60),
    enabled: fields.enabled.default(true),
  })
  .strict()
  .superRefine((rule, ctx) => {
    thresholdFits(rule, ctx);
    judgeFits(rule, ctx);
  });
export type AlertRuleInput = z.infer<typeof AlertRuleInputSchema>;

/**
 * A change to a rule: any of its fields. The threshold and the judge are checked against the
 * merged rule (production/alerts/rules.ts).
 */
export const AlertRulePatchSchema = z.object(fields).partial().strict().superRefine(thresholdFits);
export type AlertRulePatch = z.infer<typeof AlertRulePatchSchema>;
