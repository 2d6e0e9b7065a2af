import { z } from "zod";
import { QUESTION_LIMITS, QUESTION_TYPES } from "./rules.js";

export { QUESTION_LIMITS, QUESTION_TYPES } from "./rules.js";

export const QuestionTypeSchema = z.enum(QUESTION_TYPES);
export type QuestionType = z.infer<typeof QuestionTypeSchema>;

/**
 * One question as a user writes it (import rows, API bodies, generator output). Field names are
 * seed 003's `questions` columns; `ground_truth` may be empty (the reference judge then needs one).
 */
export const QuestionInputSchema = z.object({
  question_type: QuestionTypeSchema.default("USER_DEFINED"),
  question_text: z
    .string()
    .trim()
    .min(1, "a non-empty question")
    .max(QUESTION_LIMITS.questionChars),
  ground_truth: z.string().trim().max(QUESTION_LIMITS.groundTruthChars).default(""),
  /**
   * Several acceptable references (issue 14 §1); stored with `ground_truth` as the first of them
   * (see references.ts). A reference judge scores against the best-matching one.
   */
  ground_truths: z
    .array(z.string().trim().min(1, "a non-empty reference").max(QUESTION_LIMITS.groundTruthChars))
    .max(QUESTION_LIMITS.referencesPerQuestion)
    .optional(),
  /** The chunk a generated question came from (its evidence). */
  reference_context: z.string().max(QUESTION_LIMITS.referenceContextChars).nullish(),
  /**
   * Ids of the documents (the `id` given at ingest, or a file's path) or chunks that answer the
   * question: retrieval metrics are computed against them (issue 26 §4).
   */
  relevant_ids: z
    .array(z.string().trim().min(1, "a non-empty id").max(QUESTION_LIMITS.relevantIdChars))
    .max(QUESTION_LIMITS.relevantPerQuestion)
    .optional(),
  /**
   * Texts of the passages that answer it, matched to the retrieved chunks when the question has
   * no relevant_ids (judges/retrieval/relevance.ts says how).
   */
  reference_contexts: z
    .array(
      z.string().trim().min(1, "a non-empty passage").max(QUESTION_LIMITS.referenceContextChars),
    )
    .max(QUESTION_LIMITS.relevantPerQuestion)
    .optional(),
});
export type QuestionInput = z.infer<typeof QuestionInputSchema>;

/** Seed 003 question_sets metadata. */
export const QuestionSetMetaSchema = z.object({
  name: z.string().trim().min(1, "a non-empty name").max(255),
  description: z.string().max(10_000).nullish(),
  collection_id: z.string().max(256).nullish(),
});
export type QuestionSetMeta = z.infer<typeof QuestionSetMetaSchema>;
