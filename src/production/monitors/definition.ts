// What a monitor is (issue 24 §2), as a caller defines it: the one schema the API and the store's
// jsonb columns are read through.

import { z } from "zod";
import { type JudgeKind, needsLlm } from "../../judges/index.js";

/** Judges a monitor may run: production answers have no ground truth, so none that need one. */
export const MONITOR_JUDGES = [
  "offline",
  "token_precision",
  "review",
  "rubric",
] as const satisfies readonly JudgeKind[];

const label = z.string().trim().min(1).max(256);

export const MonitorFilterSchema = z
  .object({
    collection: label.optional().describe("only answers from this collection"),
    model: label.optional().describe("only answers from this model"),
    service: label
      .optional()
      .describe("only answers from this service (OpenTelemetry service.name)"),
    metadata: z
      .record(z.string().min(1).max(128), z.string().max(1_000))
      .refine((value) => Object.keys(value).length <= 16, "at most 16 keys")
      .optional()
      .describe("only answers whose metadata has each of these values (compared as text)"),
    gate: z
      .array(z.enum(["pass", "partial", "fail", "skipped"]))
      .min(1)
      .max(4)
      .optional()
      .describe("only answers with one of these gate verdicts"),
    feedback: z
      .enum(["any", "up", "down"])
      .optional()
      .describe(
        "only answers people gave feedback on (any), a thumbs up, or a thumbs down; judged when the feedback arrives",
      ),
  })
  .strict();
export type MonitorFilter = z.infer<typeof MonitorFilterSchema>;

export const MonitorInputSchema = z
  .object({
    name: label,
    enabled: z.boolean().default(true),
    filter: MonitorFilterSchema.default({}),
    sample_rate: z.number().min(0).max(1).describe("the share of matching answers judged, 0 to 1"),
    judges: z
      .array(z.enum(MONITOR_JUDGES))
      .min(1)
      .max(MONITOR_JUDGES.length)
      .refine((kinds) => new Set(kinds).size === kinds.length, "each judge once"),
    max_calls_per_minute: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .describe("the most LLM calls a minute; answers past it are skipped"),
    max_calls_per_day: z
      .number()
      .int()
      .min(0)
      .max(100_000_000)
      .describe("the most LLM calls a UTC day; answers past it are skipped"),
  })
  .strict();
export type MonitorInput = z.infer<typeof MonitorInputSchema>;
export type MonitorInputIn = z.input<typeof MonitorInputSchema>;

/** LLM calls judging one answer costs: one per LLM judge, times the judges' repeat. */
export function callsPerAnswer(judges: readonly string[], repeat = 1): number {
  return judges.filter((kind) => needsLlm(kind as JudgeKind)).length * Math.max(1, repeat);
}
