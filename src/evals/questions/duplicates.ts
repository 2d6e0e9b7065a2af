import { QuestionImportError, type RowError } from "./errors.js";
import { questionKey } from "./rules.js";

export { questionKey };

export interface DuplicateRow {
  /** 1-based position in `questions`. */
  row: number;
  /** The earlier row it repeats; absent when it repeats an existing question. */
  duplicate_of_row?: number;
  /** It repeats a question already in the set. */
  existing: boolean;
}

/** A question, or its text; a question read on the parse thread carries its key already. */
type QuestionLike = string | { question_text: string; question_key?: string };

function keyOf(question: QuestionLike): string {
  if (typeof question === "string") return questionKey(question);
  return question.question_key ?? questionKey(question.question_text);
}

/**
 * Rows whose question repeats an earlier row or one of `existing` (an existing set's question
 * texts). The first occurrence in `questions` is never reported; a repeat of an existing question
 * is reported as `existing` even when an earlier row repeats it too.
 */
export function findDuplicates(
  questions: readonly QuestionLike[],
  existing: Iterable<string> = [],
): DuplicateRow[] {
  const existingKeys = new Set<string>();
  for (const text of existing) existingKeys.add(questionKey(text));
  const firstRow = new Map<string, number>();
  const duplicates: DuplicateRow[] = [];
  questions.forEach((question, index) => {
    const key = keyOf(question);
    // A question of punctuation only has no key; validation rejects or keeps it on its own terms.
    if (key === "") return;
    const row = index + 1;
    if (existingKeys.has(key)) {
      duplicates.push({ row, existing: true });
      return;
    }
    const first = firstRow.get(key);
    if (first === undefined) firstRow.set(key, row);
    else duplicates.push({ row, duplicate_of_row: first, existing: false });
  });
  return duplicates;
}

/** Row errors (field question_text) for duplicates, renumbered through `rowOf` when given. */
export function duplicateRowErrors(
  duplicates: readonly DuplicateRow[],
  rowOf: (row: number) => number = (row) => row,
): RowError[] {
  return duplicates.map((d) => ({
    row: rowOf(d.row),
    field: "question_text",
    message:
      d.duplicate_of_row === undefined
        ? "already in the question set"
        : `duplicate of row ${rowOf(d.duplicate_of_row)}`,
  }));
}

/**
 * For the store: new questions may be added to a set only if none repeats another or one of the
 * set's `existing` question texts. Throws a QuestionImportError naming every repeating row.
 */
export function assertNoDuplicateQuestions(
  questions: readonly QuestionLike[],
  existing: Iterable<string> = [],
): void {
  const duplicates = findDuplicates(questions, existing);
  if (duplicates.length > 0) throw new QuestionImportError(duplicateRowErrors(duplicates));
}
