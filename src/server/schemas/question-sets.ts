import { z } from "zod";
import { GenerateQuestionsRequestSchema } from "../../evals/generation/index.js";
import { QUESTION_TYPES } from "../../evals/questions/index.js";
import { DIFF_FIELDS } from "../../evals/question-sets/index.js";
import { QUESTION_SET_CHANGES } from "../../store/index.js";
import { CallUsageSchema, PricedUsageSchema } from "../../llm/index.js";
import { responseSchema } from "../components.js";
import { CodedMessageSchema, Id, Time } from "./common.js";

// Question sets, their questions and versions, question generation.

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

export const RelevantIdsSchema = z
  .array(z.string())
  .nullable()
  .describe("ids of the documents (as given at ingest) or chunks that answer the question");
export const ReferenceContextsSchema = z
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
export const PinnedVersionFields = {
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
