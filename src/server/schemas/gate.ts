import { z } from "zod";
import {
  EvaluationCheckSchema,
  GateActionSchema,
  GateConfigSchema,
  GateStatusSchema,
} from "../../gate/index.js";
import { responseSchema } from "../components.js";

// The gate and the guardrail: evaluation records, verdicts, guard decisions.

export const EvaluationRecordSchema = responseSchema(
  "EvaluationRecord",
  z.object({
    id: z.uuid(),
    conversation_id: z.string(),
    message_id: z.string(),
    retrieval_record_id: z.string(),
    generation_record_id: z.string(),
    status: GateStatusSchema,
    action: GateActionSchema,
    rule_version: z.string(),
    config: GateConfigSchema,
    checks: z.array(EvaluationCheckSchema),
    scores: z.record(z.string(), z.number()),
    meta: z.record(z.string(), z.unknown()),
    input: z.record(z.string(), z.unknown()),
    created_at: z.string(),
  }),
);

export const GateResponseSchema = responseSchema(
  "GateResponse",
  EvaluationRecordSchema.omit({ input: true }).extend({
    record_id: z.uuid(),
  }),
);

export const EvaluationRecordListSchema = responseSchema(
  "EvaluationRecordList",
  z.object({
    items: z.array(EvaluationRecordSchema),
    next_before_seq: z.number().int().nullable(),
  }),
);

export const GateVerdictOutSchema = z.looseObject({
  status: GateStatusSchema,
  action: GateActionSchema,
  rule_version: z.string(),
  checks: z.array(EvaluationCheckSchema),
  scores: z.record(z.string(), z.number()),
  config: z.record(z.string(), z.unknown()),
});

/** `POST /guard`: the guardrail's decision (gate/guard.ts GuardResult). */
export const GuardResponseSchema = responseSchema(
  "GuardResponse",
  z.object({
    decision: z.enum(["allow", "block", "repair"]),
    answer: z.string().describe("what to show: as given, repaired, or empty when blocked"),
    citations: z.array(z.looseObject({ node_id: z.string() })),
    reasons: z.array(
      z.object({
        check: z.string(),
        status: z.enum(["fail", "warn"]),
        message: z.string().describe("why, in one sentence of the requested language"),
      }),
    ),
    repair: z
      .object({
        removed: z.array(
          z.object({
            sentence: z.string(),
            reason: z.enum(["unsupported", "unsupported_figure"]),
            figures: z.array(z.string()).optional(),
          }),
        ),
        removed_markers: z.array(z.string()),
        repointed_markers: z.array(z.object({ from: z.string(), to: z.string() })),
        removed_citations: z.array(z.string()),
      })
      .optional()
      .describe("what the repair changed, when the decision is repair"),
    verdict: GateVerdictOutSchema,
    repaired_verdict: GateVerdictOutSchema.optional(),
    record_id: z.uuid().optional().describe("the stored record, when record=true"),
  }),
);
