import { z } from "zod";
import { GenerateQuestionsRequestSchema } from "../evals/generation/index.js";
import { ItemUsageLineSchema } from "../evals/runs/index.js";
import {
  EvaluationCheckSchema,
  GateActionSchema,
  GateConfigSchema,
  GateStatusSchema,
} from "../gate/index.js";
import { JUDGE_KINDS, JudgeLineSchema, missingForJudges } from "../judges/index.js";
import { QUESTION_TYPES } from "../evals/questions/index.js";
import { DIFF_FIELDS } from "../evals/question-sets/index.js";
import { QUESTION_SET_CHANGES } from "../store/index.js";
import {
  CallUsageSchema,
  CostTotalSchema,
  FAILURE_KINDS,
  PricedUsageSchema,
} from "../llm/index.js";
import { responseSchema } from "./components.js";

// The HTTP API's own shapes: its request bodies beyond the gate's input, and its responses.

/** A sentence for a person as a code (text/user-messages.ts) the web app words in its language. */
/** A clause worded by its own code inside another message (text/user-messages.ts MessagePart). */
const MessagePartSchema = z.object({
  code: z.string(),
  params: z.unknown().describe("what fills the clause, as a message's params"),
});

export const CodedMessageSchema = responseSchema(
  "CodedMessage",
  z.object({
    code: z.string().describe('what happened, e.g. "calibration.few_labels"'),
    params: z
      .record(
        z.string(),
        z.union([
          z.string(),
          z.number(),
          z.array(z.string()),
          z.array(z.object({ kind: z.string(), count: z.number().int(), example: z.string() })),
          MessagePartSchema,
          z.array(MessagePartSchema),
        ]),
      )
      .describe(
        "what fills the sentence; a list of names; model failures as groups by kind with a count; clauses worded by their own codes",
      ),
    message: z.string().describe("the sentence in English"),
  }),
);

export const ErrorSchema = responseSchema(
  "Error",
  z.object({
    error: z.string(),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    /** A rejected import: every bad row of the file (1-based), the field at fault, and why. */
    rows: z
      .array(z.object({ row: z.number().int(), field: z.string(), message: z.string() }))
      .optional(),
    /** The arena contestant at fault (by name). */
    contestant: z.string().optional(),
    /** Questions already in the set (their index in the request's list). */
    duplicates: z
      .array(z.object({ index: z.number().int(), question_text: z.string() }))
      .optional(),
    /** A rejected label file: every bad or unmatched line (1-based), the field at fault, and why. */
    lines: z
      .array(z.object({ line: z.number().int(), field: z.string(), message: z.string() }))
      .optional(),
  }),
);

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

/** `POST /api/v1/judge`: one line of `ragjudge judge` input plus the judges to run. */
export const JudgeRequestSchema = JudgeLineSchema.extend({
  judges: z.array(z.enum(JUDGE_KINDS)).min(1).max(JUDGE_KINDS.length).default(["offline"]),
  no_cache: z.boolean().default(false),
}).superRefine((request, ctx) => {
  for (const issue of missingForJudges(request, request.judges)) {
    ctx.addIssue({ code: "custom", ...issue });
  }
});

/** `GET /api/v1/question-sets/generations/{id}`: a generation job (server/rows.ts). */
export const QuestionGenerationSchema = responseSchema(
  "QuestionGeneration",
  z.object({
    id: z.uuid(),
    collection_id: z.uuid(),
    status: z.enum(["PENDING", "RUNNING", "COMPLETED", "FAILED"]),
    progress: z.number().int().min(0).max(100),
    config: GenerateQuestionsRequestSchema,
    /** Only when COMPLETED: the preview, not yet saved to any set. */
    questions: z
      .array(
        z.looseObject({
          question_type: z.enum(QUESTION_TYPES),
          question_text: z.string(),
          ground_truth: z.string(),
          reference_context: z.string().nullable().optional(),
        }),
      )
      .optional(),
    /** Only when COMPLETED: true when no generator LLM was configured. */
    heuristic: z.boolean().optional(),
    warnings: z.array(CodedMessageSchema),
    usage: CallUsageSchema.extend({
      models: z
        .array(PricedUsageSchema)
        .optional()
        .describe("the generator's tokens by model with their cost; cost_usd null: price unknown"),
      cost_usd: z.number().optional().describe("USD of the priced tokens"),
      unpriced_models: z.array(z.string()).optional(),
    })
      .nullable()
      .describe(
        "The generator LLM's calls (re-asks included), tokens and summed latency, once COMPLETED; " +
          "null before, after a failure, and for the heuristic generator (no LLM)",
      ),
    error: z.string().nullable(),
    error_message: CodedMessageSchema.nullable().describe("why it FAILED, as a coded message"),
    gmt_created: z.string(),
    gmt_updated: z.string(),
  }),
);

// ---- Responses: the JSON each route answers (rows as server/rows.ts shows them). Times are ISO
// 8601 strings on the wire.

const Time = z.string().describe("an ISO 8601 time");
const Id = z.string().meta({ format: "uuid" });
const Nullable = <S extends z.ZodType>(schema: S) => schema.nullable();

export const OkSchema = responseSchema("Ok", z.object({ status: z.literal("ok") }));

export const EvaluationRecordListSchema = responseSchema(
  "EvaluationRecordList",
  z.object({
    items: z.array(EvaluationRecordSchema),
    next_before_seq: z.number().int().nullable(),
  }),
);

const LlmCallSchema = z.looseObject({
  model: z.string().optional(),
  latency_ms: z.number().optional(),
  attempts: z.number().optional(),
});

const judgeBase = {
  name: z.string(),
  language: z.string().optional(),
  model: z.string().optional(),
  calls: z.array(LlmCallSchema).optional(),
  agreement: z.record(z.string(), z.unknown()).optional(),
  trials: z.array(z.record(z.string(), z.unknown())).optional(),
};

/** One judge's result (judges/result.ts): a score, or a failure with no numbers and its reason. */
export const JudgeResultSchema = responseSchema(
  "JudgeResult",
  z.discriminatedUnion("outcome", [
    z.looseObject({
      ...judgeBase,
      outcome: z.literal("ok"),
      score: z.number().describe("on [0, 1]"),
      raw_score: z
        .number()
        .describe("the judge's own scale: review 1/0, rubric 1-10, reference 1-5"),
      passed: z.boolean(),
      verdict: z
        .record(z.string(), z.unknown())
        .describe("the judge's reply: reasoning, suggestions, per-dimension scores, metrics"),
    }),
    z.looseObject({
      ...judgeBase,
      outcome: z.literal("judge_error"),
      score: z.number().nullable().describe("null: a failed judge has no score"),
      raw_score: z.number().nullable(),
      passed: z.boolean().nullable(),
      verdict: z.unknown(),
      error: z.looseObject({
        message: z.string(),
        cause: z.string().optional().describe("reply, error, or the LLM error's name"),
        retryable: z.boolean().optional(),
        raw: z.array(z.string()).optional(),
      }),
    }),
  ]),
);

export const JudgeResponseSchema = responseSchema(
  "JudgeResponse",
  z.object({
    results: z.partialRecord(z.enum(JUDGE_KINDS), JudgeResultSchema),
  }),
);

export const CollectionSchema = responseSchema(
  "Collection",
  z.object({
    id: Id,
    name: z.string(),
    config: z.record(z.string(), z.unknown()),
    version: z.number().int(),
    observation_count: z.number().int(),
    created_at: Time,
    deleted_at: Nullable(Time),
  }),
);

export const CollectionSummarySchema = responseSchema(
  "CollectionSummary",
  CollectionSchema.extend({
    document_count: z.number().int(),
    chunk_count: z.number().int(),
  }),
);

export const CollectionListSchema = responseSchema(
  "CollectionList",
  z.object({ items: z.array(CollectionSummarySchema) }),
);

export const IngestResultSchema = responseSchema(
  "IngestResult",
  z.object({
    collection_id: z.string(),
    collection_created: z.boolean(),
    documents: z.object({ added: z.number(), unchanged: z.number(), replaced: z.number() }),
    chunks: z.object({ added: z.number(), removed: z.number(), embedded: z.number() }),
    problems: z.array(z.looseObject({ message: z.string().optional() })),
  }),
);

const RetrievedHitSchema = z.looseObject({
  node_id: z.string(),
  content: z.string(),
  score: z.number(),
  source: z.string(),
  sources: z.array(z.string()),
  scores: z.record(z.string(), z.number()),
  document_id: z.string(),
  title: z.string().optional(),
  position: z.number(),
  metadata: z.record(z.string(), z.unknown()),
});

const TraceStepSchema = z.looseObject({
  machine: z.string(),
  node: z.string(),
  started_ms: z.number(),
  duration_ms: z.number(),
  summary: z.string().describe("what changed, for developers"),
  summary_message: CodedMessageSchema.optional().describe(
    "what the step did in plain words, as a code; absent in traces stored before it existed",
  ),
  next: z.string(),
  router: z.string().optional(),
});

const GateVerdictOutSchema = z.looseObject({
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

/** `POST /ask`: the built-in bot's whole state (rag/loops/ask.ts AskResult) and its diagrams. */
export const AskResponseSchema = responseSchema(
  "AskResponse",
  z.object({
    question: z.string(),
    collection_id: z.string(),
    conversation_id: z.string(),
    message_id: z.string(),
    hits: z.array(RetrievedHitSchema),
    quality: z
      .record(z.string(), z.unknown())
      .describe("the quality loop's state (retrieval graded and rewritten)"),
    quality_exit: z.enum(["quality", "retry_limit", "timeout"]),
    answer: z
      .record(z.string(), z.unknown())
      .describe("the answer loop's state (answer reviewed and regenerated)"),
    answer_exit: z.enum(["passed", "epoch_limit", "timeout"]),
    final_answer: z.string(),
    citations: z.array(z.string()),
    gate: GateVerdictOutSchema,
    action: GateActionSchema,
    response: z.object({
      action: GateActionSchema,
      answer: z.string().nullable(),
      notice: z.string().nullable(),
    }),
    observations: z.record(z.string(), z.unknown()).nullable(),
    warnings: z.array(z.string()),
    trace: z.array(TraceStepSchema),
    duration_ms: z.number(),
    diagrams: z.object({ quality_loop: z.string(), answer_loop: z.string() }),
  }),
);

export const QuestionSetSchema = responseSchema(
  "QuestionSet",
  z.object({
    id: Id,
    collection_id: Id.nullable(),
    name: z.string(),
    description: z.string().nullable(),
    question_count: z.number().int(),
    gmt_created: Time,
    gmt_updated: Time,
  }),
);

export const QuestionSetListSchema = responseSchema(
  "QuestionSetList",
  z.object({ items: z.array(QuestionSetSchema) }),
);

const RelevantIdsSchema = z
  .array(z.string())
  .nullable()
  .describe("ids of the documents (as given at ingest) or chunks that answer the question");
const ReferenceContextsSchema = z
  .array(z.string())
  .nullable()
  .describe("texts of the passages that answer the question, matched to retrieved chunks");

export const QuestionSchema = responseSchema(
  "Question",
  z.object({
    id: Id,
    question_set_id: Id,
    position: z.number().int(),
    question_type: z.enum(QUESTION_TYPES),
    question_text: z.string(),
    ground_truth: z.string(),
    reference_context: z.string().nullable(),
    relevant_ids: RelevantIdsSchema,
    reference_contexts: ReferenceContextsSchema,
    gmt_created: Time,
    gmt_updated: Time,
  }),
);

export const QuestionListSchema = responseSchema(
  "QuestionList",
  z.object({ items: z.array(QuestionSchema) }),
);

export const QuestionSetWithQuestionsSchema = responseSchema(
  "QuestionSetWithQuestions",
  QuestionSetSchema.extend({
    questions: z.array(QuestionSchema),
  }),
);

/** A version of a set without its questions (issue 28 §3). */
export const QuestionSetVersionSummarySchema = responseSchema(
  "QuestionSetVersionSummary",
  z.object({
    id: Id,
    question_set_id: Id,
    number: z.number().int().describe("1, 2, 3… per set"),
    created_by: Id.nullable().describe("who made the change; null once that user is gone"),
    created_at: Time,
    change: z.enum(QUESTION_SET_CHANGES).describe("what made this version"),
    restored_from: z.number().int().nullable().describe("the version a `restored` one copies"),
    question_count: z.number().int(),
  }),
);

export const QuestionSetVersionListSchema = responseSchema(
  "QuestionSetVersionList",
  z.object({
    items: z.array(
      QuestionSetVersionSummarySchema.extend({
        created_by_name: z.string().nullable().describe("the name of who made the change"),
      }),
    ),
  }),
);

/** A question as a version holds it: the question's id (kept across edits) and its content. */
export const VersionQuestionSchema = responseSchema(
  "VersionQuestion",
  z.object({
    id: Id,
    question_type: z.enum(QUESTION_TYPES),
    question_text: z.string(),
    ground_truth: z.string(),
    ground_truths: z.array(z.string()).nullable(),
    reference_context: z.string().nullable(),
    relevant_ids: RelevantIdsSchema,
    reference_contexts: ReferenceContextsSchema,
  }),
);

export const QuestionSetVersionSchema = responseSchema(
  "QuestionSetVersion",
  QuestionSetVersionSummarySchema.extend({
    questions: z.array(VersionQuestionSchema),
  }),
);

export const QuestionSetVersionDiffSchema = responseSchema(
  "QuestionSetVersionDiff",
  z.object({
    from: QuestionSetVersionSummarySchema,
    to: QuestionSetVersionSummarySchema,
    added: z.array(VersionQuestionSchema).describe("in `to`, not in `from`"),
    removed: z.array(VersionQuestionSchema).describe("in `from`, not in `to`"),
    changed: z.array(
      z.object({
        before: VersionQuestionSchema,
        after: VersionQuestionSchema,
        fields: z
          .array(z.enum(DIFF_FIELDS))
          .describe("what differs; ground_truths stands for all the references"),
      }),
    ),
    unchanged: z.number().int(),
  }),
);

/** The version of its question set a run or an arena used; null for one made before versions. */
const PinnedVersionFields = {
  question_set_version_id: Id.nullable().describe(
    "the version of the question set it ran on (null: made before versions)",
  ),
  question_set_version: z.number().int().nullable().describe("that version's number"),
};

export const GenerationStartedSchema = responseSchema(
  "GenerationStarted",
  z.object({
    id: Id,
    status: z.enum(["PENDING", "RUNNING", "COMPLETED", "FAILED"]),
  }),
);

export const EVALUATION_STATUSES = [
  "PENDING",
  "RUNNING",
  "PAUSED",
  "COMPLETED",
  "FAILED",
  "CANCELLED",
] as const;
export const RESULT_STATUS_VALUES = [
  "PENDING",
  "RUNNING",
  "SCORED",
  "BOT_ERROR",
  "JUDGE_ERROR",
] as const;

export const EvaluationSchema = responseSchema(
  "Evaluation",
  z.object({
    id: Id,
    name: z.string(),
    collection_id: Id.nullable(),
    question_set_id: Id.nullable(),
    ...PinnedVersionFields,
    bot_id: z.string().describe('"builtin" or the HTTP bot\'s URL (credentials removed)'),
    judge_llm_model_id: z.string(),
    config: z
      .record(z.string(), z.unknown())
      .describe("the run's configuration snapshot: bot, judges, models, prompt versions; no key"),
    status: z.enum(EVALUATION_STATUSES),
    status_reason: z.string().nullable(),
    progress: z.number().int(),
    total_questions: z.number().int(),
    completed_questions: z.number().int(),
    scored_questions: z.number().int(),
    bot_error_count: z.number().int(),
    judge_error_count: z.number().int(),
    average_score: z.number().nullable().describe("mean primary score on [0, 1], SCORED only"),
    max_cost_usd: z
      .number()
      .nullable()
      .describe("the run's cost limit in USD (eval --max-cost), or null for none"),
    cost_limit_reached: z
      .boolean()
      .describe("the run is paused because its next question could pass max_cost_usd"),
    started_at: Time.nullable(),
    finished_at: Time.nullable(),
    gmt_created: Time,
    gmt_updated: Time,
  }),
);

export const ProgressSchema = responseSchema(
  "Progress",
  z.object({
    completed: z.number().int(),
    total: z.number().int(),
    percent: z.number(),
    eta_seconds: z.number().nullable(),
  }),
);

/** RAGChecker's metrics over many answers, each a mean × 100 to one decimal (judges/claims). */
const ClaimMetricsReportSchema = z.object({
  overall: z.object({ precision: z.number(), recall: z.number(), f1: z.number() }),
  retriever: z.object({ claim_recall: z.number(), context_precision: z.number() }),
  generator: z.object({
    context_utilization: z.number(),
    noise_sensitivity_in_relevant: z.number(),
    noise_sensitivity_in_irrelevant: z.number(),
    hallucination: z.number(),
    self_knowledge: z.number(),
    faithfulness: z.number(),
  }),
});

const JudgeSummarySchema = z.object({
  count: z.number().int(),
  mean_score: z.number().nullable(),
  mean_raw: z.number().nullable(),
  pass_rate: z.number().nullable(),
  distribution: z.record(z.string(), z.number()),
  metrics: z.record(z.string(), z.number().nullable()),
  claim_metrics: ClaimMetricsReportSchema.nullable()
    .optional()
    .describe("claims and claims_offline only: RAGChecker's metrics over the run, in %"),
  approximate: z
    .string()
    .nullable()
    .optional()
    .describe("claims_offline: how its claims and checks approximate RAGChecker's"),
});

const RetrievalMeansSchema = z.object({
  hit_rate: z.number(),
  recall: z.number(),
  precision: z.number(),
  mrr: z.number(),
  ndcg: z.number(),
});

/** evals/runs/retrieval.ts RetrievalSummary. */
const RetrievalSummarySchema = z
  .object({
    count: z.number().int().describe("results whose questions name relevant items"),
    k: z.number().int().nullable().describe("the cutoff of the @k metrics"),
    means: RetrievalMeansSchema,
  })
  .nullable()
  .describe(
    "mean hit rate@k, recall@k, precision@k, MRR and nDCG@k; null when no question names relevant items",
  );

/** evals/runs/retrieval.ts ItemRetrieval: one result's metrics. */
export const ItemRetrievalSchema = RetrievalMeansSchema.extend({
  by: z
    .enum(["ids", "contexts"])
    .describe("relevance known by the question's relevant_ids, or its reference_contexts"),
  k: z.number().int(),
  relevant: z.number().int().describe("relevant items the question names"),
  retrieved: z.number().int().describe("distinct contexts retrieved"),
  found: z.number().int().describe("relevant items matched in the top k"),
  matched: z
    .array(z.object({ id: z.string(), rank: z.number().int() }))
    .describe("each relevant item found, with the rank that first matched it"),
  missing: z.array(z.string()).describe("relevant items no retrieved context matched"),
});

/** evals/runs/summary.ts RunCost: what the run's LLM calls cost (docs/cost.md). */
export const RunCostSchema = z.object({
  total: CostTotalSchema.describe(
    "USD of the priced tokens; unpriced_models names the models whose tokens have no price",
  ),
  bot: CostTotalSchema.describe(
    "the bot's own LLM calls (the built-in bot's, or what an HTTP bot reports)",
  ),
  judges: z.record(z.string(), CostTotalSchema).describe("each judge's calls"),
  by_model: z
    .array(ItemUsageLineSchema)
    .describe(
      "tokens and cost per part (bot or judge), role and model; cost_usd null: price unknown",
    ),
  per_question: z.object({ mean_usd: z.number().nullable(), max_usd: z.number().nullable() }),
});

/** evals/runs/summary.ts EvaluationSummary. */
export const EvaluationSummarySchema = responseSchema(
  "EvaluationSummary",
  z.object({
    total: z.number().int(),
    completed: z.number().int(),
    pending: z.number().int(),
    running: z.number().int(),
    scored: z.number().int(),
    errors: z.object({ bot: z.number().int(), judge: z.number().int() }),
    average_score: z.number().nullable(),
    pass_rate: z.number().nullable(),
    gate: z.record(z.string(), z.number()),
    judges: z.partialRecord(z.enum(JUDGE_KINDS), JudgeSummarySchema),
    by_question_type: z.record(
      z.string(),
      z.object({
        total: z.number().int(),
        scored: z.number().int(),
        average_score: z.number().nullable(),
        pass_rate: z.number().nullable(),
      }),
    ),
    latency_ms: z.object({
      mean: z.number().nullable(),
      p50: z.number().nullable(),
      p95: z.number().nullable(),
    }),
    usage: z.object({
      prompt_tokens: z.number(),
      completion_tokens: z.number(),
      calls: z.number(),
    }),
    retrieval: RetrievalSummarySchema,
    cost: RunCostSchema,
  }),
);

export const BotSourceSchema = z.looseObject({
  node_id: z.string(),
  content: z.string(),
  source: z.string().optional(),
  score: z.number().optional(),
  title: z.string().optional(),
  document_id: z
    .string()
    .optional()
    .describe("the document's id as given at ingest (a JSONL line's id, a file's path)"),
});

/** One question's result in a run (an evaluation_results row without owner and job). */
export const EvaluationResultSchema = responseSchema(
  "EvaluationResult",
  z.object({
    id: Id,
    evaluation_id: Id,
    question_id: z.string(),
    position: z.number().int(),
    question_type: z.string(),
    question_text: z.string(),
    ground_truth: z.string(),
    reference_context: z.string().nullable(),
    relevant_ids: RelevantIdsSchema,
    reference_contexts: ReferenceContextsSchema,
    status: z.enum(RESULT_STATUS_VALUES),
    attempts: z.number().int(),
    latency_ms: z.number().nullable(),
    usage: z.record(z.string(), z.unknown()).nullable(),
    cost: CostTotalSchema.nullable().describe(
      "what the question's LLM calls (bot and judges) cost; null when none were recorded",
    ),
    rag_answer: z.string().nullable(),
    rag_answer_sources: z.array(BotSourceSchema).nullable().describe("the sources the bot used"),
    rag_citations: z.array(z.string()).nullable().describe("node_ids the answer cites"),
    rag_tool_calls: z.array(z.unknown()).nullable().describe("the built-in bot's loop trace"),
    gate_status: z.string().nullable(),
    gate: z
      .looseObject({
        status: GateStatusSchema.optional(),
        action: GateActionSchema.optional(),
        checks: z.array(EvaluationCheckSchema).optional(),
        scores: z.record(z.string(), z.number()).optional(),
        error: z.unknown().optional(),
      })
      .nullable()
      .describe("the gate's verdict, or {error} when the answer could not be gated"),
    judges: z.partialRecord(z.enum(JUDGE_KINDS), JudgeResultSchema).nullable(),
    retrieval: ItemRetrievalSchema.nullable().describe(
      "retrieval metrics against the question's relevant items; null when it names none",
    ),
    llm_judge_score: z.number().int().nullable(),
    llm_judge_reasoning: z.string().nullable(),
    score: z.number().nullable().describe("the primary score on [0, 1]"),
    passed: z.boolean().nullable(),
    error: z.string().nullable(),
    gmt_created: Time,
    gmt_updated: Time,
    diagrams: z
      .object({ quality_loop: z.string(), answer_loop: z.string() })
      .optional()
      .describe(
        "the built-in bot's two loops as Mermaid diagrams, with the path this answer took highlighted (built-in bot results only)",
      ),
  }),
);

/**
 * One row of a run's results list: what a collapsed ResultComparisonCard shows. The answer's
 * sources, the trace, the gate's checks and the judges' outputs come with the result itself
 * (`GET /evaluations/{id}/results/{resultId}`).
 */
export const EvaluationResultListItemSchema = responseSchema(
  "EvaluationResultListItem",
  EvaluationResultSchema.pick({
    id: true,
    evaluation_id: true,
    question_id: true,
    position: true,
    question_type: true,
    question_text: true,
    status: true,
    attempts: true,
    latency_ms: true,
    gate_status: true,
    score: true,
    passed: true,
    error: true,
    retrieval: true,
    gmt_updated: true,
  }).extend({
    answer_excerpt: z
      .string()
      .nullable()
      .describe("the answer's first 240 characters; null when there is no answer"),
    answer_length: z
      .number()
      .int()
      .nullable()
      .describe("the answer's length in characters; null when there is no answer"),
    cost_usd: z
      .number()
      .nullable()
      .describe("USD of the question's priced LLM calls; null when none were recorded"),
    cost_price_unknown: z.boolean().describe("some of the question's tokens have no price"),
  }),
);

export const EvaluationListItemSchema = responseSchema(
  "EvaluationListItem",
  EvaluationSchema.extend({
    progress: ProgressSchema,
    pass_rate: z.number().nullable().describe("share of SCORED results that passed"),
    arena: z
      .object({ id: z.string(), name: z.string(), contestant: z.string() })
      .nullable()
      .describe(
        "the arena that started this run for one of its contestants (answers, a bot run for it); null for a run of its own",
      ),
  }),
);

export const EvaluationListSchema = responseSchema(
  "EvaluationList",
  z.object({ items: z.array(EvaluationListItemSchema) }),
);

export const EvaluationDetailSchema = responseSchema(
  "EvaluationDetail",
  EvaluationSchema.extend({
    progress: ProgressSchema,
    summary: EvaluationSummarySchema,
    results: z
      .array(EvaluationResultListItemSchema)
      .describe("the first page of the results list, in question order"),
  }),
);

export const ResultsPageSchema = responseSchema(
  "ResultsPage",
  z.object({
    items: z.array(EvaluationResultListItemSchema),
    offset: z.number().int(),
    limit: z.number().int(),
    total: z.number().int().describe("results matching the filters, in all pages"),
  }),
);

export const SessionSchema = responseSchema(
  "Session",
  z.object({
    user: z.object({ id: Id, name: z.string() }),
    via: z.enum(["bearer", "cookie"]),
    expires_at: Time.nullable().describe("when the cookie's session ends; null for a bearer token"),
    workspace: z
      .object({
        id: Id,
        name: z.string(),
        personal: z.boolean(),
        role: z.enum(["owner", "editor", "annotator", "viewer"]),
      })
      .describe("the workspace this request acts in, and the caller's role there"),
  }),
);

export const SessionCreatedSchema = responseSchema(
  "SessionCreated",
  z.object({
    user: z.object({ id: Id, name: z.string() }),
    expires_at: Time,
  }),
);

/** `GET /evaluations/{id}/events`: Server-Sent Events, each `data:` one of these. */
export const EvaluationEventSchema = z
  .string()
  .describe(
    "text/event-stream: `event: progress` (data: Progress and status), `event: result` (data: " +
      "EvaluationResult, id: result id and update time), `event: end` (data: {status, deleted?}), " +
      "`event: error` (data: {error: stream_failed, message}: the server lost its database; the " +
      "stream ends, open it again); comment lines keep the stream alive",
  );

export const FileDownloadSchema = z.string().describe("the file's text");

const RadarDimensionSchema = z.object({
  judge: z.enum(JUDGE_KINDS),
  dimension: z.string().describe("accuracy, completeness, clarity, exact_match, f1, rouge_l, ..."),
  mean: z.number().describe("the mean on the judge's own scale"),
  scale: z.enum(["1-10", "1-5", "0-1"]),
  value: z.number().describe("the mean mapped onto [0, 1]"),
});

export const EvaluationChartsSchema = responseSchema(
  "EvaluationCharts",
  z.object({
    radar: z.array(RadarDimensionSchema).describe("rubric dimension averages, where present"),
    histogram: z.object({
      binned: CodedMessageSchema.describe("what is binned, in words"),
      bins: z.array(
        z.object({
          from: z.number().describe("inclusive"),
          to: z.number().describe("exclusive, except the last bin's 1"),
          count: z.number().int(),
        }),
      ),
      count: z.number().int().describe("results binned"),
      not_scored: z.number().int().describe("pending, running and failed results, not binned"),
    }),
    by_question_type: z.array(
      z.object({
        question_type: z.string(),
        total: z.number().int(),
        scored: z.number().int(),
        average_score: z.number().nullable(),
        pass_rate: z.number().nullable(),
      }),
    ),
  }),
);

const CompareSideSchema = z.object({
  result_id: z
    .string()
    .describe("The run's result, in full at /evaluations/{id}/results/{result_id}"),
  question_id: z.string(),
  position: z.number().int(),
  status: z.enum(RESULT_STATUS_VALUES),
  score: z.number().nullable(),
  passed: z.boolean().nullable(),
  gate_status: z.string().nullable(),
});

const JudgeScaleSchema = z.enum(["1-10", "1-5", "0-1", "pass_fail"]);
const IncomparabilitySchema = z.discriminatedUnion("code", [
  z.object({
    code: z.literal("question_set"),
    base: z.uuid().nullable(),
    head: z.uuid().nullable(),
  }),
  z
    .object({
      code: z.literal("question_set_version"),
      base: z.number().int().nullable(),
      head: z.number().int().nullable(),
    })
    .describe(
      "one set, different versions (null: a run made before versions): only questions both versions share unchanged are compared",
    ),
  z.object({
    code: z.literal("judges"),
    base: z.array(z.enum(JUDGE_KINDS)),
    head: z.array(z.enum(JUDGE_KINDS)),
  }),
  z.object({
    code: z.literal("scale"),
    base: z.array(JudgeScaleSchema),
    head: z.array(JudgeScaleSchema),
  }),
  z.object({ code: z.literal("judge_model"), base: z.string(), head: z.string() }),
  z.object({
    code: z.literal("judge_settings"),
    judges: z.array(z.enum(JUDGE_KINDS)).describe("the judges set up differently"),
  }),
]);

const ComparedRunSchema = z.object({
  evaluation: EvaluationSchema,
  summary: EvaluationSummarySchema,
  radar: z.array(RadarDimensionSchema),
});

export const EvaluationComparisonSchema = responseSchema(
  "EvaluationComparison",
  z.object({
    base: ComparedRunSchema,
    head: ComparedRunSchema,
    matched_by: z
      .enum(["question_id", "question_text"])
      .describe("question ids on one question set; normalized question text across sets"),
    incomparable: z
      .array(IncomparabilitySchema)
      .describe("why the runs' scores are not comparable (base first); empty when they are"),
    counts: z.object({
      shared: z.number().int(),
      changed_questions: z
        .number()
        .int()
        .describe("questions both runs have, edited between them: left out of the comparison"),
      only_base: z.number().int(),
      only_head: z.number().int(),
      regressions: z.number().int(),
      improvements: z.number().int(),
      unchanged: z.number().int(),
      passed_to_failed: z.number().int(),
      failed_to_passed: z.number().int(),
      mean_score_delta: z.number().nullable(),
    }),
    items: z
      .array(
        z.object({
          question_text: z.string(),
          question_type: z.string(),
          base: CompareSideSchema,
          head: CompareSideSchema,
          score_delta: z.number().nullable().describe("head − base, when both were scored"),
          change: z.enum(["regression", "improvement", "unchanged"]),
        }),
      )
      .describe("the shared questions, regressions first (largest drop first), then improvements"),
  }),
);

export const QuestionSetTrendSchema = responseSchema(
  "QuestionSetTrend",
  z.object({
    items: z.array(
      z.object({
        evaluation_id: Id,
        name: z.string(),
        status: z.enum(EVALUATION_STATUSES),
        question_set_version: z
          .number()
          .int()
          .nullable()
          .describe("the version of the set the run used (null: a run made before versions)"),
        gmt_created: Time,
        finished_at: Time.nullable(),
        total_questions: z.number().int(),
        scored: z.number().int(),
        average_score: z.number().nullable(),
        pass_rate: z.number().nullable(),
      }),
    ),
  }),
);

/** A registered HTTP bot as its owner reads it (store/bots.ts BotRow): never the secret. */
export const BotSchema = responseSchema(
  "Bot",
  z.object({
    id: Id,
    name: z.string(),
    url: z.string(),
    secret_header: z.string(),
    has_secret: z.boolean(),
    gmt_created: Time,
  }),
);

export const BotListSchema = responseSchema("BotList", z.object({ items: z.array(BotSchema) }));

const Interval = z.tuple([z.number(), z.number()]);
const TallySchema = z.object({ wins: z.number(), ties: z.number(), losses: z.number() });

/** evals/arena's ArenaResults (docs/arena.md): what a completed arena stores. */
export const ArenaResultsSchema = z.looseObject({
  judge: z.string(),
  questions: z.number().int(),
  tolerance: z.number().nullable(),
  contestants: z.array(
    z.looseObject({
      name: z.string(),
      rank: z.number().int(),
      rating: z.number(),
      ci: Interval,
      win_rate: z.number().nullable(),
      wins: z.number(),
      ties: z.number(),
      losses: z.number(),
      length_controlled: z.object({ rating: z.number(), ci: Interval }),
      mean_length: z.number().nullable(),
      evaluation_id: z.string(),
      answered: z.number().int(),
      scored: z.number().int(),
      radar: z.record(z.string(), z.number().nullable()),
      cost: CostTotalSchema.optional().describe(
        "what the contestant's own run cost (absent in arenas stored before it was kept)",
      ),
    }),
  ),
  judge_cost: z
    .object({ by_model: z.array(PricedUsageSchema), total: CostTotalSchema })
    .optional()
    .describe("the pairwise judge's calls, priced (pairwise judge only)"),
  matrix: z.object({ names: z.array(z.string()), cells: z.array(z.array(TallySchema.nullable())) }),
  pairs: z.array(
    z.looseObject({
      a: z.string(),
      b: z.string(),
      wins: z.number(),
      ties: z.number(),
      losses: z.number(),
      missing: z.number(),
      /** Absent on arenas compared before issue 23 (score-based judges had it then only). */
      difference_of: z.enum(["score", "outcome"]).optional(),
      mean_difference: z.number().nullable().optional(),
      difference_ci: Interval.nullable().optional(),
      distinguishable: z
        .boolean()
        .describe("True when difference_ci, as printed, excludes 0 (the one rule)"),
    }),
  ),
  not_distinguishable: z.array(z.tuple([z.string(), z.string()])),
  length_control: z.looseObject({
    coefficient: z.number(),
    ci: Interval,
    comparisons: z.number().int(),
    converged: z.boolean(),
  }),
  bradley_terry: z.looseObject({ regularized: z.boolean(), iterations: z.number().int() }),
  bootstrap: z.object({ rounds: z.number().int(), seed: z.number().int() }),
  flip_rate: z
    .record(
      z.string(),
      z.object({
        judged: z.number().int(),
        flipped: z.number().int(),
        rate: z.number().nullable(),
      }),
    )
    .optional(),
  judge_errors: z
    .array(
      z.object({
        a: z.string(),
        b: z.string(),
        question_id: z.string(),
        message: z.string(),
        kind: z
          .enum(FAILURE_KINDS)
          .optional()
          .describe("what kind of failure (absent in arenas stored before it was kept)"),
      }),
    )
    .optional(),
  examples: z
    .array(
      z.object({
        a: z.string(),
        b: z.string(),
        question_id: z.string(),
        verdict: z.string(),
        reasoning: z.string(),
      }),
    )
    .optional(),
});

/** Seed 002 section 3.2's Auto-Arena: the request snapshot in `config`, the results once done. */
export const ArenaSchema = responseSchema(
  "Arena",
  z.object({
    id: Id,
    name: z.string(),
    question_set_id: Id,
    ...PinnedVersionFields,
    status: z.enum(["PENDING", "RUNNING", "COMPLETED", "FAILED"]),
    status_reason: Nullable(z.string()),
    status_message: Nullable(CodedMessageSchema).describe("why it FAILED, as a coded message"),
    config: z
      .looseObject({
        question_set_id: z.string(),
        contestants: z.array(
          z.looseObject({
            name: z.string(),
            evaluation_id: z.string(),
            source: z.enum(["evaluation", "answers", "builtin", "http"]),
            bot_id: z.string(),
          }),
        ),
        judge: z.string(),
        judge_model: z.string().nullable().optional(),
        rounds: z.number().optional(),
        seed: z.number().optional(),
      })
      .describe("The request as run: contestants as evaluation ids (never a key or the answers)"),
    results: Nullable(
      ArenaResultsSchema.describe(
        "Ratings with intervals, the win matrix and the charts' data, once COMPLETED",
      ),
    ),
    gmt_created: Time,
    gmt_updated: Time,
  }),
);

export const ArenaListSchema = responseSchema(
  "ArenaList",
  z.object({ items: z.array(ArenaSchema) }),
);

const QUESTION_OUTCOMES = ["a", "b", "tie", "not_compared", "judge_error", "not_stored"] as const;

/** An arena question by question: who won each pair, the answers, the judge's stored reasoning. */
export const ArenaQuestionsSchema = z.object({
  judge: z.string(),
  contestants: z.array(
    z.object({ name: z.string(), source: z.enum(["evaluation", "answers", "builtin", "http"]) }),
  ),
  total: z.number().int().describe("questions in the set"),
  items: z.array(
    z.object({
      question_id: z.string(),
      position: z.number().int().describe("the question's place in the set, from 0"),
      question_text: z.string(),
      answers: z.array(
        z.object({
          contestant: z.string(),
          answer: z.string().nullable(),
          score: z.number().nullable().describe("the score judge's 0-1 score; null for pairwise"),
          reasoning: z.string().nullable().describe("the score judge's stored reasoning"),
        }),
      ),
      pairs: z.array(
        z.object({
          a: z.string(),
          b: z.string(),
          outcome: z
            .enum(QUESTION_OUTCOMES)
            .describe(
              "who won: a, b or a tie; not compared (an answer or score missing); the judge failed; or not stored (a pairwise arena compared before per-question verdicts were kept)",
            ),
          flipped: z
            .boolean()
            .nullable()
            .describe("pairwise: the two orders disagreed (counted as a tie)"),
          reasoning: z
            .array(z.string())
            .describe("pairwise: the judge's reasoning with a's answer first, then b's"),
          error: z.string().nullable(),
        }),
      ),
    }),
  ),
});
