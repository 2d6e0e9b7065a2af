import { z } from "zod";
import { ALERT_METRICS, AlertFilterSchema } from "../../production/index.js";

// Alert rules (issue 24 §4) with their state, the secret shown once at creation, and each
// episode of a rule firing and resolving with its webhook deliveries.

export const AlertRuleSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  metric: z.enum(ALERT_METRICS),
  judge: z.string().nullable().describe("the judge a judge_mean rule watches; null otherwise"),
  comparison: z.enum(["below", "above"]),
  threshold: z.number(),
  window_minutes: z.number().int(),
  min_count: z.number().int(),
  filter: AlertFilterSchema,
  webhook_url: z.string(),
  cooldown_minutes: z.number().int(),
  enabled: z.boolean(),
  created_at: z.string(),
  state: z.enum(["firing", "ok"]).describe("firing while an episode is open"),
  firing_since: z.string().nullable(),
  evaluated_at: z.string().nullable().describe("when the rule was last measured"),
  last_value: z.number().nullable(),
  last_count: z.number().int().nullable(),
});

export const CreatedAlertRuleSchema = AlertRuleSchema.extend({
  secret: z
    .string()
    .describe("the webhook signing secret: shown this once, stored encrypted, never shown again"),
});

const DeliverySchema = z.object({
  attempts: z.number().int(),
  outcome: z.enum(["delivered", "failed", "refused", "pending"]),
  status: z.number().int().nullable().describe("the receiver's last HTTP status"),
  detail: z.string().nullable().describe("why it failed, in words"),
  at: z.string(),
});

export const AlertEventSchema = z.object({
  id: z.uuid(),
  rule_id: z.uuid(),
  fired_at: z.string(),
  value: z.number(),
  count: z.number().int(),
  resolved_at: z.string().nullable(),
  resolved_value: z.number().nullable(),
  resolved_count: z.number().int().nullable(),
  fired_delivery: DeliverySchema.nullable(),
  resolved_delivery: DeliverySchema.nullable(),
});

export const AlertRuleListSchema = z.object({ items: z.array(AlertRuleSchema) });

export const AlertEventListSchema = z.object({ items: z.array(AlertEventSchema) });
