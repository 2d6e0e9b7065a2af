import { z } from "zod";
import { ItemUsageLineSchema } from "../../evals/runs/index.js";
import { EvaluationCheckSchema, GateActionSchema, GateStatusSchema } from "../../gate/index.js";
import { JUDGE_KINDS } from "../../judges/index.js";
import { CostTotalSchema } from "../../llm/index.js";
import { RESULT_ERROR_KINDS } from "../../store/index.js";
import { responseSchema } from "../components.js";
import { CodedMessageSchema, Id, Time } from "./common.js";
import { JudgeResultSchema } from "./judges.js";
import {
  PinnedVersionFields,
  ReferenceContextsSchema,
  RelevantIdsSchema,
} from "./question-sets.js";

// Evaluations: runs, progress, summaries, results, charts, comparisons, trends.

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
    error_kind: z
      .enum(RESULT_ERROR_KINDS)
      .nullable()
      .describe(
        "a BOT_ERROR's kind (`error`: the bot failed some other way); `error` holds the detail; null otherwise or in results stored before kinds",
      ),
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
    error_kind: true,
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
    llm_called: z
      .boolean()
      .describe(
        "some LLM call was recorded for the question; false: a cost_usd of 0 means no call was made, not a price",
      ),
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

/** `GET /evaluations/{id}/events`: Server-Sent Events, each `data:` one of these. */
export const EvaluationEventSchema = z
  .string()
  .describe(
    "text/event-stream: `event: progress` (data: Progress and status), `event: result` (data: " +
      "EvaluationResult, id: result id and update time), `event: end` (data: {status, deleted?}), " +
      "`event: error` (data: {error: stream_failed, message}: the server lost its database; the " +
      "stream ends, open it again); comment lines keep the stream alive",
  );

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

// Request bodies of a run's controls.

export const RetryRequestSchema = z.object({
  scope: z.enum(["failed", "all"]).default("failed"),
});

export const ResumeRequestSchema = z.object({
  max_cost_usd: z
    .number()
    .positive()
    .max(1_000_000)
    .nullable()
    .optional()
    .describe(
      "a new cost limit in USD for the run from now on (null: no limit); left out, the run keeps its limit",
    ),
});
