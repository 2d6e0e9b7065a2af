// Leaf files, not the questions folder's index.ts: the web app bundles this module, and that
// index loads Node (the parse thread). eslint.config.js, WEB_SHARED.
import { findDuplicates } from "../questions/duplicates.js";
import {
  type FileProblem,
  FileRefusal,
  namedCells,
  problemWords,
  type QuestionFormat,
  type RawRow,
  type RowProblem,
  readFileRows,
  schemaProblem,
} from "../questions/parse-file.js";
import { questionTypeOf, referenceListOf } from "../questions/rules.js";
import { type AnswerLine, type AnswerLineInput, AnswerLineSchema } from "./schema.js";

// The one reader of answers files (issue 14 §1: .csv, .json, .jsonl of {question, answer, ...})
// and of the answers an API body sends, for the server (parse.ts, which throws
// QuestionImportError) and the web app's new-arena form (web/src/pages/arenas/answers-file.ts), so
// what the browser reads is what the CLI and the API accept. Files are read as question files are
// (questions/parse-file.ts: size, encoding, CSV, strict JSON, row limits); no Node dependencies.

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

/** A CSV header's field; the question's is "question_text", as the file reader requires. */
function csvFieldOf(name: string): string | undefined {
  const field = answerFieldOf(name);
  return field === "question" ? "question_text" : field;
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

/** One row's fields under the schema's names, lists read, and the line they make; or its problems. */
function answerOf(value: unknown): { input: AnswerLineInput; answer: AnswerLine } | RowProblem[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [{ field: "(row)", ...problemWords("file.answer_not_object") }];
  }
  const problems: RowProblem[] = [];
  const input: Record<string, unknown> = {};
  const named = namedCells(value, answerFieldOf);
  problems.push(...named.problems);
  for (const [field, cell] of named.cells) {
    if (Object.hasOwn(QUESTION_LISTS, field)) {
      const items = referenceListOf(cell, QUESTION_LISTS[field as keyof typeof QUESTION_LISTS]);
      if (!Array.isArray(items)) problems.push({ field, ...items });
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
  // It passed the schema, so it is the schema's input.
  if (parsed.success) return { input: input as AnswerLineInput, answer: parsed.data };
  return parsed.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "(row)";
    const missing = issue.path.length === 1 && input[String(issue.path[0])] === undefined;
    return { field, ...schemaProblem(issue as Parameters<typeof schemaProblem>[0], missing) };
  });
}

/** One good row: its number, what the API takes for it, and the line it makes. */
export interface ReadAnswer {
  row: number;
  /** The row under the schema's names with its lists read: what POST /evaluations and /arenas take. */
  input: AnswerLineInput;
  answer: AnswerLine;
}

export type AnswerRowsOutcome =
  { ok: true; answers: ReadAnswer[] } | { ok: false; problems: FileProblem[] };

export type AnswersFileOutcome =
  | {
      ok: true;
      answers: ReadAnswer[];
      /** The file line a row starts on (CSV: worked out at the first call). */
      lineOf: (row: number) => number;
    }
  | { ok: false; problems: FileProblem[] };

/**
 * Validates answer rows, all or nothing: every bad row and field is a problem, and every question
 * asked twice; `lineOf` gives a row's line in its file (an API body's item: its row).
 */
export function answerRowsOutcome(
  rows: readonly RawRow[],
  lineOf: (row: number) => number = (row) => row,
): AnswerRowsOutcome {
  const problems: FileProblem[] = [];
  const answers: ReadAnswer[] = [];
  for (const { row, value } of rows) {
    const result = answerOf(value);
    if (Array.isArray(result))
      problems.push(...result.map((p) => ({ row, line: lineOf(row), ...p })));
    else answers.push({ row, ...result });
  }
  for (const duplicate of findDuplicates(answers.map(({ answer }) => answer.question))) {
    const { row } = answers[duplicate.row - 1] as ReadAnswer;
    const earlier = (answers[(duplicate.duplicate_of_row ?? duplicate.row) - 1] as ReadAnswer).row;
    problems.push({
      row,
      line: lineOf(row),
      field: "question",
      ...problemWords("file.same_question", { earlier }),
      earlier: { row: earlier, line: lineOf(earlier) },
    });
  }
  if (problems.length > 0) return { ok: false, problems: problems.sort((a, b) => a.row - b.row) };
  return { ok: true, answers };
}

/** A file with no rows, in an answers file's words. */
function answersWording(problem: FileProblem): FileProblem {
  const empty = ["file.empty", "file.header_only", "file.no_questions"].includes(problem.code);
  return empty ? { ...problem, ...problemWords("file.no_answers") } : problem;
}

/**
 * Reads an answers file (.jsonl, .json or .csv), all or nothing. Rows are JSONL lines, JSON array
 * positions or CSV data rows, counted from 1; unreadable rows are reported with the readable rows'
 * problems, all at once. In CSV, list fields (ground_truths, contexts, citations, ...) hold JSON
 * lists; a plain cell is one item.
 */
export function answersFileOutcome(
  content: string | Uint8Array,
  format: QuestionFormat,
): AnswersFileOutcome {
  let raw;
  try {
    raw = readFileRows(content, format, csvFieldOf);
  } catch (error) {
    if (error instanceof FileRefusal) {
      return { ok: false, problems: error.problems.map(answersWording) };
    }
    throw error;
  }
  const outcome = answerRowsOutcome(raw.rows, raw.lineOf);
  const problems = [...raw.problems, ...(outcome.ok ? [] : outcome.problems)];
  if (problems.length > 0) return { ok: false, problems: problems.sort((a, b) => a.row - b.row) };
  return { ok: true, answers: outcome.ok ? outcome.answers : [], lineOf: raw.lineOf };
}

export type { AnswerLineInput, FileProblem };
