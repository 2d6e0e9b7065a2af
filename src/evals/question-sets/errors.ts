/** One problem with a request, named by its field path (`questions.3.question_text`). */
export interface RequestIssue {
  path: string;
  message: string;
}

/** A question-set request that parsed but cannot be used as sent: HTTP 400 naming each field. */
export class QuestionSetRequestError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
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
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "not_found";
  override readonly name = "QuestionNotFoundError";
  constructor(readonly id: string) {
    super(`question ${id} not found`);
  }
}

/** A version number the set does not have (or a set with no version): HTTP 404. */
export class QuestionSetVersionNotFoundError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "not_found";
  override readonly name = "QuestionSetVersionNotFoundError";
  constructor(
    readonly setId: string,
    readonly number: number | null,
  ) {
    super(`question set ${setId} has no version ${number ?? ""}`.trim());
  }
}
