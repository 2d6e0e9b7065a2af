import type { LabelFileIssue } from "./label-file.js";

/** An evaluation, result or label that is not the caller's (or does not exist): a 404. */
export class CalibrationNotFoundError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "not_found";
  override readonly name = "CalibrationNotFoundError";
  constructor(
    readonly what: "evaluation" | "result" | "label" | "monitor",
    readonly id: string,
  ) {
    super(`${what} ${id} not found`);
  }
}

/** A request that cannot be served as asked (a judge the run did not use, a bad label). */
export class CalibrationRequestError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
  override readonly name = "CalibrationRequestError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/** A label file with bad lines: nothing was written; every issue names its line and field. */
export class LabelImportError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
  override readonly name = "LabelImportError";
  constructor(readonly issues: readonly LabelFileIssue[]) {
    super(
      `${issues.length} bad line${issues.length === 1 ? "" : "s"}; nothing was imported:\n` +
        issues.map((i) => `line ${i.line}: ${i.field}: ${i.message}`).join("\n"),
    );
  }
}
