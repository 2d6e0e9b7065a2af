import { stringify } from "csv-stringify/sync";
import { spreadsheetSafe } from "../../formats/index.js";
import type { QuestionFormat } from "./import.js";
import { storedReferences } from "./references.js";
import { storedRelevance } from "./relevance.js";
import type { QuestionInput } from "./schema.js";

/** CSV columns, in seed 003's order; reference_context is empty for a question without one. */
export const QUESTION_CSV_COLUMNS = [
  "question_type",
  "question_text",
  "ground_truth",
  "reference_context",
  "ground_truths",
  "relevant_ids",
  "reference_contexts",
] as const;

/** Columns whose cell holds a list as JSON text, which the importer reads back. */
const LIST_COLUMNS = new Set<string>(["ground_truths", "relevant_ids", "reference_contexts"]);

type ExportedQuestion = Pick<QuestionInput, "question_text"> &
  Partial<Pick<QuestionInput, "question_type" | "ground_truth" | "reference_context">> & {
    ground_truths?: readonly string[] | null;
    relevant_ids?: readonly string[] | null;
    reference_contexts?: readonly string[] | null;
  };

/** The fields of a question set's file; extra fields (ids, source chunks) are left out. */
function exportedRecord(question: ExportedQuestion): QuestionInput {
  const { ground_truth, ground_truths } = storedReferences(question);
  const record: QuestionInput = {
    question_type: question.question_type ?? "USER_DEFINED",
    question_text: question.question_text,
    ground_truth,
  };
  if (ground_truths) record.ground_truths = ground_truths;
  // The importer reads a blank reference_context as none, so none is what is written.
  if (question.reference_context?.trim()) record.reference_context = question.reference_context;
  const { relevant_ids, reference_contexts } = storedRelevance(question);
  if (relevant_ids) record.relevant_ids = relevant_ids;
  if (reference_contexts) record.reference_contexts = reference_contexts;
  return record;
}

/**
 * A question set as a file parseQuestionFile reads back unchanged: CSV (RFC 4180, CRLF, header
 * row), a JSON array, or JSONL. A CSV cell a spreadsheet would run as a formula (`=`, `+`, `-`,
 * `@`, tab, CR) is written with a leading `'` (questions may come from generated or imported
 * text), which the importer takes off again; JSON and JSONL hold the text as is.
 */
export function exportQuestions(
  questions: readonly ExportedQuestion[],
  format: QuestionFormat,
  /**
   * The version of the set the questions are, written on every row as `question_set_version_id`
   * (the last CSV column, the last key of each JSON object), which the importer ignores.
   */
  options: { versionId?: string } = {},
): string {
  const { versionId } = options;
  const records: Array<QuestionInput & { question_set_version_id?: string }> = questions.map(
    (question) => ({
      ...exportedRecord(question),
      ...(versionId ? { question_set_version_id: versionId } : {}),
    }),
  );
  switch (format) {
    case "csv": {
      const columns = versionId
        ? [...QUESTION_CSV_COLUMNS, "question_set_version_id" as const]
        : [...QUESTION_CSV_COLUMNS];
      return stringify(
        records.map((r) =>
          columns.map((column) =>
            // A CSV cell holds a list as JSON, which the importer reads back.
            LIST_COLUMNS.has(column) ? listCell(r[column]) : spreadsheetSafe(r[column] ?? ""),
          ),
        ),
        { header: true, columns, record_delimiter: "windows" },
      );
    }
    case "json":
      return `${JSON.stringify(records, null, 2)}\n`;
    case "jsonl":
      return records.map((r) => `${JSON.stringify(r)}\n`).join("");
  }
}

function listCell(value: unknown): string {
  return Array.isArray(value) && value.length > 0 ? JSON.stringify(value) : "";
}
