import { z } from "zod";
import { MONITOR_JUDGES, MonitorFilterSchema } from "../../production/index.js";

// Monitors (issue 24 §2) with what each did in the last 24 hours, and the monitor's charts (§3):
// buckets of answers beside the period before, judges' means, a breakdown.

const CountsSchema = z.object({
  matched: z.number().int().describe("answers that matched the filter"),
  sampled_out: z.number().int().describe("matched answers the sample left out"),
  skipped: z.number().int().describe("sampled answers skipped because the budget was spent"),
  llm_calls: z.number().int().describe("LLM calls reserved for the answers taken up"),
  queued: z.number().int(),
  running: z.number().int(),
  done: z.number().int(),
  failed: z.number().int().describe("answers no judge could score"),
});

export const MonitorSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  enabled: z.boolean(),
  filter: MonitorFilterSchema,
  sample_rate: z.number(),
  judges: z.array(z.enum(MONITOR_JUDGES)),
  max_calls_per_minute: z.number().int(),
  max_calls_per_day: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  last_24h: CountsSchema.describe("what it did with the answers of the last 24 hours"),
});

const SummarySchema = z.object({
  count: z.number(),
  gate_pass_rate: z.number().nullable(),
  feedback_up: z.number(),
  feedback_down: z.number(),
  feedback_score: z.number().nullable(),
  latency_mean_ms: z.number().nullable(),
  latency_p95_ms: z.number().nullable(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
});
const PointSchema = SummarySchema.extend({ start: z.string() });

export const MonitorSeriesSchema = z.object({
  bucket: z.enum(["minute", "hour", "day"]),
  from: z.string(),
  to: z.string(),
  previous_from: z.string().describe("the previous period runs from here to `from`"),
  current: z.array(PointSchema),
  previous: z.array(PointSchema).describe("the same buckets one period earlier"),
  totals: z.object({ current: SummarySchema, previous: SummarySchema }),
  judges: z.array(
    z.object({
      judge: z.string(),
      current: z.array(z.number().nullable()),
      previous: z.array(z.number().nullable()),
      mean: z.object({ current: z.number().nullable(), previous: z.number().nullable() }),
      judged: z.object({ current: z.number(), previous: z.number() }),
    }),
  ),
  breakdown: z.object({
    by: z.string(),
    rows: z.array(z.object({ value: z.string(), current: SummarySchema, previous: SummarySchema })),
  }),
});

export const ProductionScopesSchema = z.object({
  services: z.array(z.string()),
  collections: z.array(z.string()),
  breakdown_keys: z.array(z.string()).describe("metadata keys the charts can break down by"),
});

export const MonitorListSchema = z.object({ items: z.array(MonitorSchema) });

export const MonitorDeletedSchema = z.object({ deleted: z.literal(true) });
