import { z } from "zod";
import { EvaluationCheckSchema, GateActionSchema, GateStatusSchema } from "../../gate/index.js";
import { MAX_ANSWERS_PER_BATCH } from "../../production/index.js";
import { responseSchema } from "../components.js";

// Production answers (issue 24 §1.2): the batch an app sends, what was stored of it, an answer
// with its gate verdict, people's feedback and the monitors' judgments.

export const AnswerBatchSchema = z
  .object({
    answers: z
      .array(z.unknown())
      .max(MAX_ANSWERS_PER_BATCH)
      .optional()
      .describe("answers as JSON objects (each an EvaluatorInput with optional extras)"),
    jsonl: z
      .string()
      .max(20_000_000)
      .optional()
      .describe("or the same as JSON Lines, one answer a line"),
  })
  .strict()
  .refine((body) => (body.answers === undefined) !== (body.jsonl === undefined), {
    message: "send either answers (a JSON array) or jsonl (JSON Lines), not both",
    path: ["answers"],
  });

export const ItemErrorSchema = z.object({
  /** 1-based: the line of `jsonl`, or the position in `answers`. */
  item: z.number().int(),
  path: z.string(),
  message: z.string(),
});

export const AnswerBatchResultSchema = responseSchema(
  "AnswerBatchResult",
  z.object({
    accepted: z.number().int().describe("answers stored now"),
    duplicates: z
      .number()
      .int()
      .describe("answers already stored under their conversation and message ids"),
    rejected: z.number().int(),
    answers: z.array(
      z.object({
        item: z.number().int(),
        id: z.uuid(),
        duplicate: z.boolean(),
        gate: z.object({ status: GateStatusSchema, action: GateActionSchema }),
      }),
    ),
    errors: z.array(ItemErrorSchema).describe("every item that was not stored, by item and field"),
  }),
);

export const AnswerRecordSchema = responseSchema(
  "AnswerRecord",
  z.object({
    id: z.uuid(),
    received_at: z.string(),
    source: z.enum(["api", "client", "otlp", "guard"]),
    conversation_id: z.string(),
    message_id: z.string(),
    session_id: z.string().nullable(),
    trace_id: z.string().nullable(),
    service: z.string().nullable(),
    collection: z.string().nullable(),
    model: z.string().nullable(),
    query: z.string().nullable(),
    answer: z.string(),
    input: z
      .record(z.string(), z.unknown())
      .describe("the retrieval hits and citations, for replay"),
    latency_ms: z.number().nullable(),
    prompt_tokens: z.number().nullable(),
    completion_tokens: z.number().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    gate: z.object({
      status: GateStatusSchema,
      action: GateActionSchema,
      rule_version: z.string(),
      checks: z.array(EvaluationCheckSchema),
      scores: z.record(z.string(), z.number()),
    }),
  }),
);

const feedbackFields = {
  thumb: z.enum(["up", "down"]).optional().describe("a thumbs up or down"),
  score: z.number().min(0).max(1).optional().describe("a score from 0 (worst) to 1 (best)"),
  comment: z.string().trim().min(1).max(4000).optional().describe("what the person said"),
};

const saysSomething = (body: { thumb?: unknown; score?: unknown; comment?: unknown }) =>
  body.thumb !== undefined || body.score !== undefined || body.comment !== undefined;
const SAYS_NOTHING = {
  message: "send a thumb (up or down), a score (0 to 1) or a comment",
  path: ["thumb"],
};

export const FeedbackInputSchema = z
  .object(feedbackFields)
  .strict()
  .refine(saysSomething, SAYS_NOTHING);

/** Feedback by the app's own ids, for apps that never saw ragjudge's answer id. */
export const KeyedFeedbackInputSchema = z
  .object({
    conversation_id: z.string().min(1).max(500),
    message_id: z.string().min(1).max(500),
    ...feedbackFields,
  })
  .strict()
  .refine(saysSomething, SAYS_NOTHING);

export const FeedbackSchema = z.object({
  id: z.uuid(),
  answer_id: z.uuid(),
  thumb: z.enum(["up", "down"]).nullable(),
  score: z.number().nullable(),
  comment: z.string().nullable(),
  created_at: z.string(),
});

export const FeedbackSummarySchema = z.object({
  count: z.number().int(),
  up: z.number().int(),
  down: z.number().int(),
});

export const MonitorJudgeResultSchema = z.object({
  outcome: z.enum(["ok", "judge_error"]),
  score: z.number().nullable(),
  passed: z.boolean().nullable(),
  model: z.string(),
  verdict: z.unknown().describe("the judge's own output, with its reasoning"),
  error: z.string().nullable(),
});

export const JudgmentSchema = z.object({
  monitor_id: z.uuid(),
  monitor_name: z.string(),
  status: z.enum(["queued", "running", "done", "failed", "skipped"]),
  skip_reason: z.string().nullable().describe("why it was not judged, in words"),
  judged_at: z.string().nullable(),
  results: z.record(z.string(), MonitorJudgeResultSchema).describe("each judge's result, by judge"),
});

export const SpanSummarySchema = z.object({
  span_id: z.string(),
  parent_span_id: z.string().nullable(),
  name: z.string(),
  kind: z.string().describe("OpenInference span kind or GenAI operation, else the OTLP kind"),
  start_ms: z.number().describe("milliseconds after the trace's first span started"),
  duration_ms: z.number(),
});

export const AnswerWithFeedbackSchema = AnswerRecordSchema.extend({
  feedback: z.array(FeedbackSchema).describe("what people said about it, oldest first"),
  judgments: z.array(JudgmentSchema).describe("what each monitor's judges made of it"),
  spans: z
    .array(SpanSummarySchema)
    .nullable()
    .describe("the trace's spans in short (OpenTelemetry answers only)"),
});

export const AnswerRecordListSchema = responseSchema(
  "AnswerRecordList",
  z.object({
    items: z.array(AnswerRecordSchema.extend({ feedback: FeedbackSummarySchema })),
    next_before: z.string().nullable().describe("pass as `before` for the next page"),
  }),
);
