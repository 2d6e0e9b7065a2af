/** One problem with a request, named by its field path (`questions.3.question_text`). */
export interface RequestIssue {
  path: string;
  message: string;
}

/** A question-set request that parsed but cannot be used as sent: HTTP 400 naming each field. */
export class QuestionSetRequestError extends Error {
  override readonly name = "QuestionSetRequestError";
  constructor(
    readonly issues: RequestIssue[],
    message?: string,
  ) {
    super(message ?? issues.map((issue) => `${issue.path}: ${issue.message}`).join("; "));
  }
}

/** A question id that is unknown, deleted, or another user's: HTTP 404. */
export class QuestionNotFoundError extends Error {
  override readonly name = "QuestionNotFoundError";
  constructor(readonly id: string) {
    super(`question ${id} not found`);
  }
}

/** A version number the set does not have (or a set with no version): HTTP 404. */
export class QuestionSetVersionNotFoundError extends Error {
  override readonly name = "QuestionSetVersionNotFoundError";
  constructor(
    readonly setId: string,
    readonly number: number | null,
  ) {
    super(`question set ${setId} has no version ${number ?? ""}`.trim());
  }
}
