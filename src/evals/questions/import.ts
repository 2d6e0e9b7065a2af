import { QuestionImportError, type RowError } from "./errors.js";
import {
  type FileProblem,
  type QuestionFormat,
  questionFileOutcome,
  questionFormatByName,
} from "./parse-file.js";
import type { QuestionInput } from "./schema.js";

// The server's side of the question file reader (parse-file.ts, which the web app shares): its
// problems as a QuestionImportError, rows counted as the API and the CLI name them.

export { QUESTION_FORMATS, type QuestionFormat, type RawRow } from "./parse-file.js";

/** The format of an uploaded file, by its extension (case-insensitive). */
export function questionFormatOf(filename: string): QuestionFormat {
  const format = questionFormatByName(filename);
  if (format === undefined) {
    throw QuestionImportError.file(
      `cannot tell the format of "${filename}": expected a .csv, .json or .jsonl file`,
    );
  }
  return format;
}

/**
 * Parses an uploaded question file, all or nothing: every bad row (invalid value, duplicate
 * question, undecodable bytes) is named in the QuestionImportError thrown, and nothing is
 * returned unless every row is good. Rows are CSV data rows (header excluded), JSONL lines, or
 * JSON array positions, all counted from 1. Unknown columns and keys are ignored.
 */
export function parseQuestionFile(
  content: string | Uint8Array,
  format: QuestionFormat,
): QuestionInput[] {
  const outcome = questionFileOutcome(content, format);
  if (!outcome.ok) throw importErrorOf(outcome.problems);
  return outcome.questions;
}

/** A whole-file problem is the error's message; row problems are its rows. */
export function importErrorOf(problems: readonly FileProblem[]): QuestionImportError {
  const file = problems.find((p) => p.row === 0);
  if (file) return QuestionImportError.file(file.message);
  return new QuestionImportError(problems.map(rowErrorOf));
}

function rowErrorOf({ row, field, message }: FileProblem): RowError {
  return { row, field, message };
}
