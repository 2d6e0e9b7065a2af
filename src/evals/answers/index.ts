// Precomputed answers to judge (issue 14 §1): answers files and API bodies, validated all or
// nothing, turned into a question set and the per-question answers a run of bot kind `answers` judges.
export { AnswersRejectedError } from "./errors.js";
export { matchAnswersToSet, type SetQuestion } from "./match.js";
export { parseAnswersFile, questionsOfAnswers, validateAnswerLines } from "./parse.js";
export {
  ANSWER_LIMITS,
  type AnswerContext,
  AnswerContextSchema,
  type AnswerLine,
  type AnswerLineInput,
  AnswerLineSchema,
  type SuppliedAnswer,
  SuppliedAnswerSchema,
  suppliedAnswerOf,
} from "./schema.js";
