// Typed errors for question sets. Test with `QuestionImportError.isInstance(e)`, which survives two
// copies of the module being loaded, like the LLM layer's errors.

const IMPORT_MARKER = Symbol.for("ragjudge.questions.import-error");
const GENERATION_MARKER = Symbol.for("ragjudge.questions.generation-error");

/** One problem in one row of an import (or one item of an API body). */
export interface RowError {
  /** 1-based: CSV data row (header excluded), JSONL line, JSON array index + 1; 0 = the whole file. */
  row: number;
  /** The field at fault, in QuestionInput's names; "(row)" for the row as a whole. */
  field: string;
  message: string;
}

/** How many row errors the summary message spells out before "and N more". */
const SUMMARY_ROWS = 5;

export function summarizeRowErrors(rows: readonly RowError[]): string {
  const shown = rows
    .slice(0, SUMMARY_ROWS)
    .map((e) => (e.row > 0 ? `row ${e.row}: ${e.field}: ${e.message}` : e.message));
  const more = rows.length > SUMMARY_ROWS ? `; and ${rows.length - SUMMARY_ROWS} more` : "";
  const badRows = new Set(rows.filter((e) => e.row > 0).map((e) => e.row)).size;
  const head = badRows > 0 ? `${badRows} invalid row${badRows === 1 ? "" : "s"}: ` : "";
  return `${head}${shown.join("; ")}${more}`;
}

/**
 * An import (or a batch of new questions) was rejected as a whole. `rows` names every bad row;
 * it is empty when the file itself is at fault (too large, empty, not JSON), and the message says so.
 */
export class QuestionImportError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
  readonly [IMPORT_MARKER] = true;
  override readonly name = "QuestionImportError";
  readonly rows: RowError[];

  constructor(rows: RowError[], message?: string) {
    super(message ?? summarizeRowErrors(rows));
    this.rows = rows;
  }

  /** A whole-file problem: no row to name. */
  static file(message: string): QuestionImportError {
    return new QuestionImportError([], message);
  }

  static isInstance(error: unknown): error is QuestionImportError {
    return typeof error === "object" && error !== null && IMPORT_MARKER in error;
  }
}

/** Question generation was called with options it cannot use; `field` names the option. */
export class QuestionGenerationError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
  readonly [GENERATION_MARKER] = true;
  override readonly name = "QuestionGenerationError";

  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }

  static isInstance(error: unknown): error is QuestionGenerationError {
    return typeof error === "object" && error !== null && GENERATION_MARKER in error;
  }
}
