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

/** Where questions came from, when not typed or imported: the version says `generated`. */
const OriginSchema = z
  .enum(["generation"])
  .optional()
  .describe("`generation` when the questions come from a generation's preview");

/** `POST /question-sets`: the set's metadata and its whole question list, created at once. */
export const CreateQuestionSetSchema = QuestionSetMetaSchema.extend({
  questions: QuestionListSchema.default([]),
  origin: OriginSchema,
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
  origin: OriginSchema,
});
export type AddQuestions = z.infer<typeof AddQuestionsSchema>;

const input = QuestionInputSchema.shape;

/** `PUT /question-sets/questions/{id}`: any of a question's fields; the others stay. */
const UpdateQuestionFieldsSchema = z.object({
  question_type: QuestionTypeSchema.optional(),
  question_text: input.question_text.optional(),
  ground_truth: z.string().trim().max(QUESTION_LIMITS.groundTruthChars).optional(),
  ground_truths: input.ground_truths,
  reference_context: input.reference_context,
  relevant_ids: input.relevant_ids,
  reference_contexts: input.reference_contexts,
});

export const UpdateQuestionSchema = UpdateQuestionFieldsSchema.refine(
  (patch) => Object.values(patch).some((value) => value !== undefined),
  {
    error:
      "at least one of question_type, question_text, ground_truth, ground_truths, reference_context, relevant_ids, reference_contexts",
  },
);
export type UpdateQuestion = z.infer<typeof UpdateQuestionSchema>;

/**
 * `POST /question-sets/{id}/changes`: what one save of the editor changes, written together as one
 * new version of the set.
 */
export const ChangeQuestionsSchema = z
  .object({
    removed: z.array(z.string().max(64)).max(QUESTION_LIMITS.questionsPerSet).default([]),
    updated: z
      .array(UpdateQuestionFieldsSchema.extend({ id: z.string().max(64) }))
      .max(QUESTION_LIMITS.questionsPerSet)
      .default([]),
    added: QuestionListSchema.default([]),
    origin: OriginSchema,
  })
  .refine((c) => c.removed.length + c.updated.length + c.added.length > 0, {
    error: "at least one of removed, updated, added",
  });
export type ChangeQuestions = z.infer<typeof ChangeQuestionsSchema>;

/** `POST /question-sets/{id}/versions/{number}/restore` has no body; the diff's query: */
export const VersionDiffQuerySchema = z.object({
  from: z.coerce.number().int().min(1).describe("the older version's number"),
  to: z.coerce.number().int().min(1).describe("the newer version's number"),
});
export type VersionDiffQuery = z.infer<typeof VersionDiffQuerySchema>;
