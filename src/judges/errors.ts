const MARKER = Symbol.for("ragjudge.judges.input-error");

/** A judge was called with input that does not match its schema; `field` names the culprit. */
export class JudgeInputError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
  readonly [MARKER] = true;
  override readonly name = "JudgeInputError";

  constructor(
    readonly judge: string,
    readonly field: string,
    readonly expected: string,
  ) {
    super(`${judge}: ${field}: expected ${expected}`);
  }

  static isInstance(error: unknown): error is JudgeInputError {
    return typeof error === "object" && error !== null && MARKER in error;
  }
}
