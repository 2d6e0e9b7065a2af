import { QuestionImportError, type RowError } from "../questions/index.js";

const ANSWERS_MARKER = Symbol.for("ragjudge.answers.rejected-error");

/**
 * A run's precomputed `answers` were rejected whole: `rows` names every bad item (row = index in
 * `answers` + 1). Still a QuestionImportError, so callers that read rows keep working; the API
 * tells it apart (invalid_answers, not invalid_import).
 */
export class AnswersRejectedError extends QuestionImportError {
  readonly [ANSWERS_MARKER] = true;

  constructor(rows: RowError[], message?: string) {
    super(rows, message);
  }

  static of(error: QuestionImportError): AnswersRejectedError {
    return new AnswersRejectedError(error.rows, error.message);
  }

  static isAnswers(error: unknown): error is AnswersRejectedError {
    return typeof error === "object" && error !== null && ANSWERS_MARKER in error;
  }
}
