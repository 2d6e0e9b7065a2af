import Papa from "papaparse";
import { fromSpreadsheetSafe } from "../../components/spreadsheet-cells";
import {
  QUESTION_LIMITS,
  QUESTION_LIST_FIELDS,
  QUESTION_TYPES,
  type QuestionField,
  questionFieldOf,
  questionKey,
  type QuestionType,
  questionTypeOf,
  referenceListOf,
  unknownTypeMessage,
} from "../../../../src/evals/questions/rules";

// FileUploadParser's logic (seed 003 section 4.1: files are parsed in the browser, never
// uploaded). The columns, limits, type spellings, list cells and repeat rule are the server's own
// (src/evals/questions/rules.ts), so what parses here is what the server saves.

export { QUESTION_LIMITS, QUESTION_TYPES, type QuestionType };

export interface ParsedQuestion {
  question_type: QuestionType;
  question_text: string;
  ground_truth: string;
  reference_context?: string | null;
  /** Ids of the documents (as given at ingest) or chunks that answer it. */
  relevant_ids?: string[];
  /** Texts of the passages that answer it, matched to retrieved chunks. */
  reference_contexts?: string[];
}

/** A bad row: `line` is the file's line (CSV, JSONL) or the array item (JSON), from 1. */
export interface RowIssue {
  line: number;
  unit: "line" | "item" | "file";
  field: string;
  message: string;
}

export type ParseOutcome =
  { ok: true; questions: ParsedQuestion[] } | { ok: false; issues: RowIssue[] };

export type QuestionFileFormat = "csv" | "json" | "jsonl";

type Fields = Partial<Record<QuestionField, unknown>>;

export function formatOfFile(name: string): QuestionFileFormat | undefined {
  const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  if (ext === "csv") return "csv";
  if (ext === "json") return "json";
  if (ext === "jsonl" || ext === "ndjson") return "jsonl";
  return undefined;
}

interface RawRow {
  line: number;
  unit: "line" | "item";
  fields: Fields;
}

/** Checks one row's fields; returns the question or the row's issues. */
function questionOf(row: RawRow): ParsedQuestion | RowIssue[] {
  const issues: RowIssue[] = [];
  const at = (field: string, message: string) =>
    issues.push({ line: row.line, unit: row.unit, field, message });
  const text = row.fields.question_text;
  const truth = row.fields.ground_truth ?? "";
  const type = row.fields.question_type;
  const context = row.fields.reference_context;

  let question_text = "";
  if (typeof text !== "string" || text.trim() === "") at("question_text", "the question is empty");
  else if (text.trim().length > QUESTION_LIMITS.questionChars)
    at("question_text", `longer than ${QUESTION_LIMITS.questionChars} characters`);
  else question_text = text.trim();

  let ground_truth = "";
  if (typeof truth !== "string") at("ground_truth", "expected text");
  else if (truth.trim().length > QUESTION_LIMITS.groundTruthChars)
    at("ground_truth", `longer than ${QUESTION_LIMITS.groundTruthChars} characters`);
  else ground_truth = truth.trim();

  let question_type: QuestionType = "USER_DEFINED";
  if (type !== undefined && type !== null && type !== "") {
    const written = typeof type === "string" ? questionTypeOf(type) : "";
    const known = QUESTION_TYPES.find((t) => t === written);
    if (known) question_type = known;
    else if (written !== undefined) at("question_type", unknownTypeMessage(type));
  }

  let reference_context: string | null = null;
  if (context !== undefined && context !== null && context !== "") {
    if (typeof context !== "string") at("reference_context", "expected text");
    else if (context.length > QUESTION_LIMITS.referenceContextChars)
      at("reference_context", `longer than ${QUESTION_LIMITS.referenceContextChars} characters`);
    else reference_context = context;
  }
  const relevant_ids = listOf(
    row.fields.relevant_ids,
    "relevant_ids",
    QUESTION_LIMITS.relevantIdChars,
    at,
  );
  const reference_contexts = listOf(
    row.fields.reference_contexts,
    "reference_contexts",
    QUESTION_LIMITS.referenceContextChars,
    at,
  );
  if (issues.length > 0) return issues;
  return {
    question_type,
    question_text,
    ground_truth,
    reference_context,
    ...(relevant_ids.length > 0 ? { relevant_ids } : {}),
    ...(reference_contexts.length > 0 ? { reference_contexts } : {}),
  };
}

/**
 * A list field as the server reads it (rules.ts, referenceListOf), its repeats dropped and the
 * server's limits checked.
 */
function listOf(
  value: unknown,
  field: "relevant_ids" | "reference_contexts",
  maxChars: number,
  at: (field: string, message: string) => void,
): string[] {
  const noun = QUESTION_LIST_FIELDS[field];
  const list = referenceListOf(value ?? [], noun);
  if (typeof list === "string") {
    at(field, list);
    return [];
  }
  const items = [...new Set(list)];
  if (items.length > QUESTION_LIMITS.relevantPerQuestion) {
    at(field, `more than ${QUESTION_LIMITS.relevantPerQuestion} ${noun}s`);
    return [];
  }
  if (items.some((item) => item.length > maxChars)) {
    at(field, `an item longer than ${maxChars} characters`);
    return [];
  }
  return items;
}

function fieldsOfObject(value: unknown): Fields | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const fields: Fields = {};
  for (const [key, v] of Object.entries(value)) {
    const field = questionFieldOf(key);
    if (field) fields[field] = v;
  }
  return fields;
}

function csvRows(text: string): { rows: RawRow[]; issues: RowIssue[] } {
  const rows: RawRow[] = [];
  const issues: RowIssue[] = [];
  // Line numbers come from the parser's cursor: a quoted field may span several lines.
  const lineStarts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
  const lineAt = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  let header: (QuestionField | undefined)[] | undefined;
  let rowStart = 0;
  Papa.parse<string[]>(text, {
    skipEmptyLines: false,
    step: (result, parser) => {
      const line = lineAt(rowStart);
      rowStart = result.meta.cursor;
      // Skip the line break that ends the row so the next row starts on its own line.
      while (text[rowStart] === "\r" || text[rowStart] === "\n") {
        if (text[rowStart] === "\n") {
          rowStart++;
          break;
        }
        rowStart++;
      }
      const cells = result.data;
      if (cells.length === 1 && (cells[0] ?? "").trim() === "") return;
      // A one-column file has no delimiter to detect: that is not a fault of the row.
      for (const error of result.errors) {
        if (error.code === "UndetectableDelimiter") continue;
        issues.push({ line, unit: "line", field: "(row)", message: error.message });
      }
      if (!header) {
        header = cells.map(questionFieldOf);
        if (!header.includes("question_text")) {
          issues.push({
            line,
            unit: "line",
            field: "(header)",
            message: "no question column: name one question_text or question",
          });
          parser.abort();
        }
        return;
      }
      const fields: Fields = {};
      header.forEach((field, i) => {
        if (field) fields[field] = fromSpreadsheetSafe(cells[i] ?? "");
      });
      rows.push({ line, unit: "line", fields });
    },
  });
  return { rows, issues };
}

function jsonlRows(text: string): { rows: RawRow[]; issues: RowIssue[] } {
  const rows: RawRow[] = [];
  const issues: RowIssue[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      issues.push({
        line,
        unit: "line",
        field: "(row)",
        message: `not valid JSON: ${(error as Error).message}`,
      });
      return;
    }
    const fields = fieldsOfObject(value);
    if (!fields)
      issues.push({ line, unit: "line", field: "(row)", message: "expected a JSON object" });
    else rows.push({ line, unit: "line", fields });
  });
  return { rows, issues };
}

function jsonRows(text: string): { rows: RawRow[]; issues: RowIssue[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      rows: [],
      issues: [
        {
          line: 1,
          unit: "file",
          field: "(file)",
          message: `not valid JSON: ${(error as Error).message}`,
        },
      ],
    };
  }
  // A bare array, or {questions: [...]} as the server's export writes it.
  const list = Array.isArray(value)
    ? value
    : fieldsOfObject(value) === undefined
      ? undefined
      : (value as { questions?: unknown }).questions;
  if (!Array.isArray(list)) {
    return {
      rows: [],
      issues: [
        {
          line: 1,
          unit: "file",
          field: "(file)",
          message: "expected an array of questions or {questions: [...]}",
        },
      ],
    };
  }
  const rows: RawRow[] = [];
  const issues: RowIssue[] = [];
  list.forEach((item, index) => {
    const fields = fieldsOfObject(item);
    if (!fields)
      issues.push({
        line: index + 1,
        unit: "item",
        field: "(row)",
        message: "expected a JSON object",
      });
    else rows.push({ line: index + 1, unit: "item", fields });
  });
  return { rows, issues };
}

/**
 * Parses a question file all or nothing: every bad row (a bad value, an empty question, a repeat
 * of an earlier row) is named with its line and reason, and no question is returned while any is.
 */
export function parseQuestionFile(text: string, format: QuestionFileFormat): ParseOutcome {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === "") {
    return {
      ok: false,
      issues: [{ line: 1, unit: "file", field: "(file)", message: "the file is empty" }],
    };
  }
  const raw =
    format === "csv" ? csvRows(body) : format === "jsonl" ? jsonlRows(body) : jsonRows(body);
  const issues = [...raw.issues];
  const questions: ParsedQuestion[] = [];
  const firstLine = new Map<string, number>();
  for (const row of raw.rows) {
    const result = questionOf(row);
    if (Array.isArray(result)) {
      issues.push(...result);
      continue;
    }
    const key = questionKey(result.question_text);
    const earlier = firstLine.get(key);
    if (earlier !== undefined) {
      issues.push({
        line: row.line,
        unit: row.unit,
        field: "question_text",
        message: `repeats the question on ${row.unit} ${earlier}`,
      });
      continue;
    }
    firstLine.set(key, row.line);
    questions.push(result);
  }
  if (issues.length === 0 && questions.length === 0) {
    issues.push({ line: 1, unit: "file", field: "(file)", message: "the file holds no questions" });
  }
  if (questions.length + issues.length > QUESTION_LIMITS.questionsPerSet) {
    issues.push({
      line: 1,
      unit: "file",
      field: "(file)",
      message: `more than ${QUESTION_LIMITS.questionsPerSet} rows`,
    });
  }
  if (issues.length > 0) return { ok: false, issues: issues.sort((a, b) => a.line - b.line) };
  return { ok: true, questions };
}
