import { z } from "zod";
// The questions folder's schema file, not its index.ts: the web app bundles this file (parse-file.ts).
import { QUESTION_LIMITS, QuestionInputSchema, QuestionTypeSchema } from "../questions/schema.js";

export const ANSWER_LIMITS = {
  answerChars: 200_000,
  contexts: 100,
  contextChars: 50_000,
  citations: 100,
} as const;

/** PostgreSQL text and jsonb cannot hold NUL: refused where it is given, by field. */
const noNul = <T extends z.ZodString>(schema: T) =>
  schema.refine((text) => !text.includes("\u0000"), {
    error: "contains a NUL character (\\u0000), which cannot be stored",
  });

/** A retrieved passage the answer stood on: its text, or the text with its id and label. */
export const AnswerContextSchema = z.union([
  noNul(z.string().max(ANSWER_LIMITS.contextChars)),
  z.object({
    node_id: noNul(z.string().trim().min(1).max(256)).optional(),
    content: noNul(z.string().max(ANSWER_LIMITS.contextChars)),
    title: z.string().max(1_000).optional(),
    source: z.string().max(256).optional(),
    /** The id of the passage's document, which a question's relevant_ids may name. */
    document_id: noNul(z.string().trim().min(1).max(1_000)).optional(),
    score: z.number().optional(),
  }),
]);
export type AnswerContext = z.infer<typeof AnswerContextSchema>;

/**
 * One precomputed answer to judge (issue 14 §1): a line of `ragjudge eval --answers FILE`, an item
 * of `POST /api/v1/evaluations {answers}`. The question comes with its references, so the question
 * set is imported from the same lines.
 */
export const AnswerLineSchema = z.object({
  question: noNul(
    z.string().trim().min(1, "a non-empty question").max(QUESTION_LIMITS.questionChars),
  ),
  /** The system's answer; an empty one (it said nothing) is judged like any other. */
  answer: noNul(z.string({ error: "the system's answer, as text" }).max(ANSWER_LIMITS.answerChars)),
  ground_truth: noNul(z.string().trim().max(QUESTION_LIMITS.groundTruthChars)).optional(),
  ground_truths: z
    .array(
      noNul(
        z.string().trim().min(1, "a non-empty reference").max(QUESTION_LIMITS.groundTruthChars),
      ),
    )
    .max(QUESTION_LIMITS.referencesPerQuestion)
    .optional(),
  contexts: z.array(AnswerContextSchema).max(ANSWER_LIMITS.contexts).default([]),
  /** node_ids of `contexts` the answer cites. */
  citations: z
    .array(noNul(z.string().trim().min(1).max(256)))
    .max(ANSWER_LIMITS.citations)
    .default([]),
  question_type: QuestionTypeSchema.optional(),
  /** What retrieval should have found (issue 26 §4): ids of documents or chunks, or passages. */
  relevant_ids: QuestionInputSchema.shape.relevant_ids,
  reference_contexts: QuestionInputSchema.shape.reference_contexts,
});
export type AnswerLine = z.infer<typeof AnswerLineSchema>;
export type AnswerLineInput = z.input<typeof AnswerLineSchema>;

/** What a run of bot kind `answers` stores per question and judges in place of a bot's reply. */
export const SuppliedAnswerSchema = z.object({
  answer: z.string(),
  contexts: z.array(
    z.object({
      node_id: z.string(),
      content: z.string(),
      title: z.string().optional(),
      source: z.string().optional(),
      document_id: z.string().optional(),
      score: z.number().optional(),
    }),
  ),
  citations: z.array(z.string()),
});
export type SuppliedAnswer = z.infer<typeof SuppliedAnswerSchema>;

/** A line's answer as stored: contexts given as plain text get ids c1, c2, ... in order. */
export function suppliedAnswerOf(line: AnswerLine): SuppliedAnswer {
  return {
    answer: line.answer,
    contexts: line.contexts.map((context, i) =>
      typeof context === "string"
        ? { node_id: `c${i + 1}`, content: context }
        : { ...context, node_id: context.node_id ?? `c${i + 1}` },
    ),
    citations: line.citations,
  };
}
