import { CsvError, parse } from "csv-parse/sync";
import { fromSpreadsheetSafe } from "../../formats/index.js";
import { parseStrictJson } from "../../text/index.js";
import { duplicateRowErrors, findDuplicates } from "./duplicates.js";
import { QuestionImportError, type RowError } from "./errors.js";
import {
  isQuestionListField,
  QUESTION_LIST_FIELDS,
  type QuestionField,
  questionFieldOf,
  type QuestionListField,
  questionTypeOf,
  referenceListOf,
  unknownTypeMessage,
} from "./rules.js";
import { QUESTION_LIMITS, type QuestionInput, QuestionInputSchema } from "./schema.js";

export { questionTypeOf, referenceListOf };

export const QUESTION_FORMATS = ["csv", "json", "jsonl"] as const;
export type QuestionFormat = (typeof QUESTION_FORMATS)[number];

const EXTENSIONS: Record<string, QuestionFormat> = {
  csv: "csv",
  json: "json",
  jsonl: "jsonl",
  ndjson: "jsonl",
};

/** The format of an uploaded file, by its extension (case-insensitive). */
export function questionFormatOf(filename: string): QuestionFormat {
  const dot = filename.lastIndexOf(".");
  const format = dot < 0 ? undefined : EXTENSIONS[filename.slice(dot + 1).toLowerCase()];
  if (format === undefined) {
    throw QuestionImportError.file(
      `cannot tell the format of "${filename}": expected a .csv, .json or .jsonl file`,
    );
  }
  return format;
}

type Field = QuestionField;
type ListField = QuestionListField;

/** One data row before validation: its number as the user counts it, and its fields. */
export interface RawRow {
  row: number;
  value: unknown;
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
  const raw = readImportRows(content, format);
  const errors = [...raw.errors];
  const parsed: { row: number; question: QuestionInput }[] = [];
  for (const { row, value } of raw.rows) {
    const result = questionOf(value);
    if (Array.isArray(result)) errors.push(...result.map((e) => ({ row, ...e })));
    else parsed.push({ row, question: result });
  }
  const duplicates = findDuplicates(parsed.map((p) => p.question));
  errors.push(...duplicateRowErrors(duplicates, (i) => (parsed[i - 1] as { row: number }).row));

  if (errors.length > 0) {
    throw new QuestionImportError(errors.sort((a, b) => a.row - b.row));
  }
  return parsed.map((p) => p.question);
}

/**
 * The rows of an import file before validation (for questions, or answers to judge): size,
 * encoding and emptiness checked, every unreadable row named. CSV rows are objects keyed by the
 * header's names as written.
 */
export function readImportRows(
  content: string | Uint8Array,
  format: QuestionFormat,
  /** A CSV header's field name; the question's must map to "question_text". */
  fieldOfHeader: (name: string) => string | undefined = questionFieldOf,
): RawRows {
  const size = typeof content === "string" ? Buffer.byteLength(content, "utf8") : content.length;
  if (size > QUESTION_LIMITS.importBytes) {
    throw QuestionImportError.file(
      `the file is ${size} bytes; an import may be at most ${QUESTION_LIMITS.importBytes} bytes`,
    );
  }
  const text = typeof content === "string" ? stripBom(content) : decodeUtf8(content, format);
  if (text.trim() === "") throw QuestionImportError.file("the file is empty: no questions");

  const raw = rawRowsOf(text, format, fieldOfHeader);
  if (raw.rows.length === 0 && raw.errors.length === 0) {
    throw QuestionImportError.file(
      format === "csv" ? "the file has a header but no questions" : "the file holds no questions",
    );
  }
  const count = raw.rows.length + raw.errors.length;
  if (count > QUESTION_LIMITS.questionsPerSet) {
    throw QuestionImportError.file(
      `the file holds ${count} rows; an import may hold at most ${QUESTION_LIMITS.questionsPerSet}`,
    );
  }
  return raw;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** UTF-8 only; a bad byte is named by its row (CSV) or line (JSON, JSONL), every one of them. */
function decodeUtf8(bytes: Uint8Array, format: QuestionFormat): string {
  try {
    // TextDecoder drops a leading BOM itself.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const lines = invalidUtf8Lines(bytes);
    const rowOf = format === "csv" ? csvRowOfLine(bytes) : (line: number) => line;
    const rows = [...new Set(lines.map(rowOf))].map((row) => ({
      row,
      field: "(row)",
      message: "not valid UTF-8 (save the file as UTF-8)",
    }));
    throw new QuestionImportError(rows);
  }
}

/** 1-based numbers of the lines holding invalid UTF-8. A 0x0A byte never occurs inside a
 * multi-byte UTF-8 sequence, so lines can be checked one by one. */
function invalidUtf8Lines(bytes: Uint8Array): number[] {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const lines: number[] = [];
  let start = 0;
  let line = 1;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    try {
      decoder.decode(bytes.subarray(start, i));
    } catch {
      lines.push(line);
    }
    start = i + 1;
    line++;
  }
  return lines;
}

/** Maps a physical line to its CSV data row, parsing leniently (a quoted field spans lines). */
function csvRowOfLine(bytes: Uint8Array): (line: number) => number {
  const text = new TextDecoder("utf-8").decode(bytes);
  let lastLines: number[] = [];
  try {
    const records = parse(text, {
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as { info: { lines: number } }[];
    lastLines = records.map((r) => r.info.lines);
  } catch {
    return (line) => line - 1;
  }
  // Record 0 is the header, so the record index is the data row.
  return (line) => {
    const index = lastLines.findIndex((last) => last >= line);
    return index < 0 ? line - 1 : index;
  };
}

export interface RawRows {
  rows: RawRow[];
  /** Rows that could not even be read (a JSONL line that is not JSON, a CSV row too long). */
  errors: RowError[];
}

function rawRowsOf(
  text: string,
  format: QuestionFormat,
  fieldOfHeader: (name: string) => string | undefined,
): RawRows {
  switch (format) {
    case "csv":
      return csvRows(text, fieldOfHeader);
    case "jsonl":
      return jsonlRows(text);
    case "json":
      return jsonRows(text);
  }
}

function csvRows(text: string, fieldOfHeader: (name: string) => string | undefined): RawRows {
  let records: string[][];
  try {
    records = parse(text, { skip_empty_lines: true, relax_column_count: true });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // `records` counts the header, so it is the number of the data row that failed.
    const row = (error as CsvError & { records?: number }).records ?? 0;
    const message = `not valid CSV: ${error.message}`;
    if (row === 0) throw QuestionImportError.file(message);
    throw new QuestionImportError([{ row, field: "(row)", message }]);
  }
  const [header = [], ...data] = records;
  const columns = csvColumns(header, fieldOfHeader);
  const rows: RawRow[] = [];
  const errors: RowError[] = [];
  data.forEach((cells, index) => {
    const row = index + 1;
    const extra = cells.slice(header.length).some((cell) => cell.trim() !== "");
    if (extra) {
      errors.push({
        row,
        field: "(row)",
        message: `${cells.length} fields but the header has ${header.length} (quote a value that holds a comma)`,
      });
      return;
    }
    const value: Record<string, string> = {};
    // A formula-like cell our CSV exports defused ('=...) reads back as it was written.
    for (const [column, field] of columns) value[field] = fromSpreadsheetSafe(cells[column] ?? "");
    rows.push({ row, value });
  });
  return { rows, errors };
}

/** Which CSV column gives which field; the header must name the question column. */
function csvColumns(
  header: readonly string[],
  fieldOfHeader: (name: string) => string | undefined,
): [number, string][] {
  const columns: [number, string][] = [];
  const named = new Map<string, string>();
  header.forEach((name, column) => {
    const field = fieldOfHeader(name);
    if (field === undefined) return;
    const earlier = named.get(field);
    if (earlier !== undefined) {
      throw QuestionImportError.file(
        `the header has two columns for ${field}: "${earlier}" and "${name}"`,
      );
    }
    named.set(field, name);
    columns.push([column, field]);
  });
  if (!named.has("question_text")) {
    throw QuestionImportError.file(
      `the first row must be a header with a question_text (or question) column; found: ${header
        .map((h) => JSON.stringify(h))
        .join(", ")}`,
    );
  }
  return columns;
}

function jsonlRows(text: string): RawRows {
  const rows: RawRow[] = [];
  const errors: RowError[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    const json = parseStrictJson(line);
    if (json.ok) rows.push({ row: index + 1, value: json.value });
    else if (json.kind === "malformed") {
      errors.push({ row: index + 1, field: "(row)", message: `not JSON: ${json.message}` });
    } else errors.push({ row: index + 1, field: json.path, message: json.message });
  });
  return { rows, errors };
}

function jsonRows(text: string): RawRows {
  const json = parseStrictJson(text);
  if (!json.ok && json.kind === "malformed") {
    const error = new SyntaxError(json.message);
    throw QuestionImportError.file(`not valid JSON: ${json.message}${lineOfError(text, error)}`);
  }
  if (!json.ok) throw QuestionImportError.file(`${json.path}: ${json.message}`);
  const value = json.value;
  const list =
    typeof value === "object" && value !== null && !Array.isArray(value) && "questions" in value
      ? value.questions
      : value;
  if (!Array.isArray(list)) {
    throw QuestionImportError.file(
      'expected a JSON array of questions, or an object {"questions": [...]}',
    );
  }
  return { rows: list.map((item, index) => ({ row: index + 1, value: item })), errors: [] };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** " (line N)" from a JSON.parse error's character position, when it gives one. */
function lineOfError(text: string, error: unknown): string {
  const position = /position (\d+)/.exec(messageOf(error))?.[1];
  if (position === undefined || /line \d+/.test(messageOf(error))) return "";
  let line = 1;
  const end = Math.min(Number(position), text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return ` (line ${line})`;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return `a ${typeof value} (${JSON.stringify(value)})`;
}

/** A validated question, or the problems of its row (field and message; the row is added later). */
function questionOf(value: unknown): QuestionInput | Omit<RowError, "row">[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [{ field: "(row)", message: "expected an object with a question_text field" }];
  }
  const problems: Omit<RowError, "row">[] = [];
  const input: Partial<Record<Exclude<Field, ListField>, string>> &
    Partial<Record<ListField, string[]>> = {};
  const named = namedCells(value, questionFieldOf);
  problems.push(...named.problems);
  for (const [field, cell] of named.cells) {
    if (isQuestionListField(field)) {
      const items = referenceListOf(cell, QUESTION_LIST_FIELDS[field]);
      if (typeof items === "string") problems.push({ field, message: items });
      else if (items.length > 0) input[field] = items;
      continue;
    }
    if (typeof cell !== "string") {
      // Types are strict on every surface: 123 or true is not a question (issue 12 §3.10).
      problems.push({ field, message: `expected text, got ${kindOf(cell)}` });
      continue;
    }
    if (cell.includes("\u0000")) {
      // PostgreSQL text cannot hold NUL (a CSV cell can).
      problems.push({
        field,
        message: "contains a NUL character (\\u0000), which cannot be stored",
      });
      continue;
    }
    input[field] = cell;
  }
  if (problems.length > 0) return problems;

  const writtenType = input.question_type;
  if (input.question_type !== undefined) {
    const type = questionTypeOf(input.question_type);
    if (type === undefined) delete input.question_type;
    else input.question_type = type;
  }
  if (input.reference_context !== undefined && input.reference_context.trim() === "") {
    delete input.reference_context;
  }

  const result = QuestionInputSchema.safeParse(input);
  if (result.success) return result.data;
  return result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "(row)";
    const top = String(issue.path[0] ?? "") as Field;
    const given = isQuestionListField(top) ? input[top] : input[field as Exclude<Field, ListField>];
    if (given === undefined) return { field, message: "missing: expected a non-empty question" };
    if (field === "question_type") {
      return { field, message: unknownTypeMessage(writtenType) };
    }
    return { field, message: issue.message };
  });
}

/**
 * A row's cells under their fields' names (`fieldOf` maps a column's spellings to its field), empty
 * cells left out; a field given under two spellings is a problem, not a silent choice.
 */
export function namedCells<F extends string>(
  row: object,
  fieldOf: (key: string) => F | undefined,
): { cells: [F, unknown][]; problems: Omit<RowError, "row">[] } {
  const cells: [F, unknown][] = [];
  const problems: Omit<RowError, "row">[] = [];
  const source = new Map<F, string>();
  for (const [key, cell] of Object.entries(row)) {
    const field = fieldOf(key);
    if (field === undefined || cell === null || cell === undefined) continue;
    const earlier = source.get(field);
    if (earlier !== undefined) {
      problems.push({ field, message: `given twice, as "${earlier}" and "${key}"` });
      continue;
    }
    source.set(field, key);
    cells.push([field, cell]);
  }
  return { cells, problems };
}
