import { z } from "zod";
import {
  QUESTION_FORMATS,
  QUESTION_LIMITS,
  QuestionInputSchema,
  QuestionSetMetaSchema,
  QuestionTypeSchema,
} from "../questions/index.js";

// The request bodies of the question-set API (seed 003 section 4.1), built from the questions'
// own schemas so an API body and an imported row are held to the same rules.

const QuestionListSchema = z
  .array(QuestionInputSchema)
  .max(QUESTION_LIMITS.questionsPerSet, `at most ${QUESTION_LIMITS.questionsPerSet} questions`);

/** `POST /question-sets`: the set's metadata and its whole question list, created at once. */
export const CreateQuestionSetSchema = QuestionSetMetaSchema.extend({
  questions: QuestionListSchema.default([]),
});
export type CreateQuestionSet = z.infer<typeof CreateQuestionSetSchema>;

/** `POST /question-sets/import`: a CSV, JSON or JSONL file's text, parsed on the server. */
export const ImportQuestionSetSchema = QuestionSetMetaSchema.extend({
  format: z.enum(QUESTION_FORMATS),
  content: z.string(),
});
export type ImportQuestionSet = z.infer<typeof ImportQuestionSetSchema>;

/** `PUT /question-sets/{id}`: any of the metadata fields. */
export const UpdateQuestionSetSchema = QuestionSetMetaSchema.partial();
export type UpdateQuestionSet = z.infer<typeof UpdateQuestionSetSchema>;

/** `POST /question-sets/{id}/questions`. */
export const AddQuestionsSchema = z.object({
  questions: QuestionListSchema.min(1, "at least one question"),
});
export type AddQuestions = z.infer<typeof AddQuestionsSchema>;

const input = QuestionInputSchema.shape;

/** `PUT /question-sets/questions/{id}`: any of a question's fields; the others stay. */
export const UpdateQuestionSchema = z
  .object({
    question_type: QuestionTypeSchema.optional(),
    question_text: input.question_text.optional(),
    ground_truth: z.string().trim().max(QUESTION_LIMITS.groundTruthChars).optional(),
    ground_truths: input.ground_truths,
    reference_context: input.reference_context,
    relevant_ids: input.relevant_ids,
    reference_contexts: input.reference_contexts,
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    error:
      "at least one of question_type, question_text, ground_truth, ground_truths, reference_context, relevant_ids, reference_contexts",
  });
export type UpdateQuestion = z.infer<typeof UpdateQuestionSchema>;
