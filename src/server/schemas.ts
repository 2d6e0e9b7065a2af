import { z } from "zod";
import { GenerateQuestionsRequestSchema } from "../evals/generation/index.js";
import {
  EvaluationCheckSchema,
  GateActionSchema,
  GateConfigSchema,
  GateStatusSchema,
} from "../gate/index.js";
import { JUDGE_KINDS, JudgeLineSchema, referencesOf } from "../judges/index.js";
import { CallUsageSchema } from "../llm/index.js";

// The HTTP API's own shapes: its request bodies beyond the gate's input, and its responses.

export const ErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** A rejected import: every bad row of the file (1-based), the field at fault, and why. */
  rows: z
    .array(z.object({ row: z.number().int(), field: z.string(), message: z.string() }))
    .optional(),
  /** Questions already in the set (their index in the request's list). */
  duplicates: z.array(z.object({ index: z.number().int(), question_text: z.string() })).optional(),
});

export const EvaluationRecordSchema = z.object({
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
});

export const GateResponseSchema = EvaluationRecordSchema.omit({ input: true }).extend({
  record_id: z.uuid(),
});

/** `POST /api/v1/judge`: one line of `ragjudge judge` input plus the judges to run. */
export const JudgeRequestSchema = JudgeLineSchema.extend({
  judges: z.array(z.enum(JUDGE_KINDS)).min(1).max(JUDGE_KINDS.length).default(["offline"]),
  no_cache: z.boolean().default(false),
}).superRefine((request, ctx) => {
  if (request.judges.includes("reference") && referencesOf(request).length === 0) {
    ctx.addIssue({
      code: "custom",
      path: ["ground_truth"],
      message: "required by the reference judge",
    });
  }
});

/** `GET /api/v1/question-sets/generations/{id}`: a generation job (server/rows.ts). */
export const QuestionGenerationSchema = z.object({
  id: z.uuid(),
  collection_id: z.uuid(),
  status: z.enum(["PENDING", "RUNNING", "COMPLETED", "FAILED"]),
  progress: z.number().int().min(0).max(100),
  config: GenerateQuestionsRequestSchema,
  /** Only when COMPLETED: the preview, not yet saved to any set. */
  questions: z.array(z.record(z.string(), z.unknown())).optional(),
  /** Only when COMPLETED: true when no generator LLM was configured. */
  heuristic: z.boolean().optional(),
  warnings: z.array(z.string()),
  usage: CallUsageSchema.nullable().describe(
    "The generator LLM's calls (re-asks included), tokens and summed latency, once COMPLETED; " +
      "null before, after a failure, and for the heuristic generator (no LLM)",
  ),
  error: z.string().nullable(),
  gmt_created: z.string(),
  gmt_updated: z.string(),
});
