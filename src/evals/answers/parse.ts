import {
  findDuplicates,
  QuestionImportError,
  type QuestionFormat,
  type QuestionInput,
  namedCells,
  questionTypeOf,
  readImportRows,
  referenceListOf,
  type RowError,
  storedReferences,
  storedRelevance,
} from "../questions/index.js";
import { type AnswerLine, AnswerLineSchema } from "./schema.js";

/** Header names and keys of an answers file, normalized (lower-case, spaces and hyphens as "_"). */
const ANSWER_FIELDS: Record<string, keyof AnswerLine> = {
  question: "question",
  question_text: "question",
  answer: "answer",
  response: "answer",
  ground_truth: "ground_truth",
  reference: "ground_truth",
  ground_truths: "ground_truths",
  references: "ground_truths",
  contexts: "contexts",
  citations: "citations",
  question_type: "question_type",
  relevant_ids: "relevant_ids",
  reference_contexts: "reference_contexts",
};

/** List fields read as the question importer reads them, with what one item is called. */
const QUESTION_LISTS = {
  ground_truths: "reference",
  relevant_ids: "id",
  reference_contexts: "passage",
} as const;

function answerFieldOf(name: string): keyof AnswerLine | undefined {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  return Object.hasOwn(ANSWER_FIELDS, key) ? ANSWER_FIELDS[key] : undefined;
}

/** A CSV cell or JSON value of a list field: a JSON list, or (in CSV) its JSON text. */
function listOf(field: "contexts" | "citations", cell: unknown): unknown {
  if (typeof cell !== "string") return cell;
  const text = cell.trim();
  if (text === "") return [];
  if (text.startsWith("[")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return cell; // zod names the field: expected a list
    }
  }
  // Plain text: one context; citations separated by commas or spaces.
  return field === "contexts" ? [cell] : text.split(/[\s,]+/).filter(Boolean);
}

/** One row's fields under the schema's names, or its problems. */
function lineOf(value: unknown): AnswerLine | Omit<RowError, "row">[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [{ field: "(row)", message: "expected an object with question and answer fields" }];
  }
  const problems: Omit<RowError, "row">[] = [];
  const input: Record<string, unknown> = {};
  const named = namedCells(value, answerFieldOf);
  problems.push(...named.problems);
  for (const [field, cell] of named.cells) {
    if (Object.hasOwn(QUESTION_LISTS, field)) {
      const items = referenceListOf(cell, QUESTION_LISTS[field as keyof typeof QUESTION_LISTS]);
      if (typeof items === "string") problems.push({ field, message: items });
      else input[field] = items;
    } else if (field === "contexts" || field === "citations") {
      input[field] = listOf(field, cell);
    } else if (field === "question_type" && typeof cell === "string") {
      const type = questionTypeOf(cell);
      if (type !== undefined) input.question_type = type;
    } else {
      input[field] = cell;
    }
  }
  if (problems.length > 0) return problems;
  const parsed = AnswerLineSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  return parsed.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "(row)";
    const missing = issue.path.length === 1 && input[String(issue.path[0])] === undefined;
    return { field, message: missing ? `missing: ${issue.message}` : issue.message };
  });
}

/**
 * Validates answer lines, all or nothing: a QuestionImportError names every bad row and field
 * (and every question asked twice); `rows` gives each line's number as the user counts it.
 */
export function validateAnswerLines(
  rows: readonly { row: number; value: unknown }[],
): AnswerLine[] {
  const errors: RowError[] = [];
  const lines: { row: number; line: AnswerLine }[] = [];
  for (const { row, value } of rows) {
    const result = lineOf(value);
    if (Array.isArray(result)) errors.push(...result.map((e) => ({ row, ...e })));
    else lines.push({ row, line: result });
  }
  for (const duplicate of findDuplicates(lines.map(({ line }) => line.question))) {
    const at = lines[duplicate.row - 1] as { row: number };
    const of = lines[(duplicate.duplicate_of_row ?? duplicate.row) - 1] as { row: number };
    errors.push({ row: at.row, field: "question", message: `the same question as row ${of.row}` });
  }
  if (errors.length > 0) throw new QuestionImportError(errors.sort((a, b) => a.row - b.row));
  return lines.map(({ line }) => line);
}

/**
 * Parses an answers file (.jsonl, .json or .csv; issue 14 §1), all or nothing. Rows are JSONL
 * lines, JSON array positions or CSV data rows, counted from 1. In CSV, list fields
 * (ground_truths, contexts, citations) hold JSON lists; a plain cell is one item.
 */
export function parseAnswersFile(
  content: string | Uint8Array,
  format: QuestionFormat,
): AnswerLine[] {
  const raw = readImportRows(content, format, (name) =>
    answerFieldOf(name) === "question" ? "question_text" : answerFieldOf(name),
  );
  // CSV rows come keyed "question_text" for the question column; the schema's name is "question".
  const rows = raw.rows.map(({ row, value }) => ({
    row,
    value:
      format === "csv"
        ? Object.fromEntries(
            Object.entries(value as Record<string, string>).map(([k, v]) => [
              k === "question_text" ? "question" : k,
              v,
            ]),
          )
        : value,
  }));
  if (raw.errors.length > 0) {
    // Unreadable rows are reported with the readable rows' problems, all at once.
    try {
      validateAnswerLines(rows);
    } catch (error) {
      if (!QuestionImportError.isInstance(error)) throw error;
      throw new QuestionImportError([...raw.errors, ...error.rows].sort((a, b) => a.row - b.row));
    }
    throw new QuestionImportError(raw.errors);
  }
  return validateAnswerLines(rows);
}

/** The question set an answers file brings: its questions with their references. */
export function questionsOfAnswers(lines: readonly AnswerLine[]): QuestionInput[] {
  return lines.map((line) => {
    const { ground_truth, ground_truths } = storedReferences(line);
    const { relevant_ids, reference_contexts } = storedRelevance(line);
    return {
      question_type: line.question_type ?? "USER_DEFINED",
      question_text: line.question,
      ground_truth,
      ...(ground_truths ? { ground_truths } : {}),
      ...(relevant_ids ? { relevant_ids } : {}),
      ...(reference_contexts ? { reference_contexts } : {}),
    };
  });
}
