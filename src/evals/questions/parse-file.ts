import { CsvError, parse } from "csv-parse/sync";
// Leaf files, not their folders' index.ts: the web app bundles this module, and text/index.ts
// loads node:buffer (eslint.config.js, WEB_SHARED's imports).
import { fromSpreadsheetSafe } from "../../formats/spreadsheet-cells.js";
import { parseStrictJson } from "../../text/strict-json.js";
import {
  type CodedMessage,
  codedMessage,
  type MessageCode,
  type MessageParams,
  messagePart,
} from "../../text/user-messages.js";
import { findDuplicates } from "./duplicates.js";
import {
  isQuestionListField,
  QUESTION_LIST_FIELDS,
  type QuestionField,
  questionFieldOf,
  type QuestionListField,
  questionTypeOf,
  referenceListOf,
  unknownTypeProblem,
} from "./rules.js";
import { QUESTION_LIMITS, type QuestionInput, QuestionInputSchema } from "./schema.js";

// The one reader of question files (CSV, JSON, JSONL), for the server's import (import.ts, which
// throws QuestionImportError) and the web app's FileUploadParser (seed 003 §4.1: the browser
// parses a file before anything is sent; web/src/pages/question-sets/parse-questions.ts), so what
// parses in the browser is what the server accepts. No Node dependencies: csv-parse's browser
// build stands in for csv-parse/sync in the web bundle (web/vite.config.ts).

export const QUESTION_FORMATS = ["csv", "json", "jsonl"] as const;
export type QuestionFormat = (typeof QUESTION_FORMATS)[number];

const EXTENSIONS: Record<string, QuestionFormat> = {
  csv: "csv",
  json: "json",
  jsonl: "jsonl",
  ndjson: "jsonl",
};

/** The format of a file by its extension (case-insensitive); none for any other name. */
export function questionFormatByName(filename: string): QuestionFormat | undefined {
  const dot = filename.lastIndexOf(".");
  const extension = filename.slice(dot + 1).toLowerCase();
  return dot < 0 || !Object.hasOwn(EXTENSIONS, extension) ? undefined : EXTENSIONS[extension];
}

/**
 * One problem of a file. Each surface counts in its own unit: the server names `row` (a CSV data
 * row, header excluded; a JSONL line; a JSON array position), the browser `line` (the file's line
 * where a CSV row starts, so a quoted line break counts; a JSONL line; a JSON array position).
 * What is wrong is a coded message (text/user-messages.ts, `file.*`): `message` holds its English
 * words, the server's (QuestionImportError's rows); the web app words the code in its language.
 */
export interface FileProblem extends CodedMessage {
  /** From 1; 0 when the file as a whole is at fault. */
  row: number;
  /** From 1; 1 when the file as a whole is at fault. */
  line: number;
  /** A field in QuestionInput's names, "(row)" for the row as a whole, "(file)" or "(header)". */
  field: string;
  /** A duplicate's earlier row. */
  earlier?: { row: number; line: number };
}

/** A problem's words: its code, what fills it, and its English message. */
export type ProblemWords = Pick<FileProblem, "code" | "params" | "message">;

/** The words of a problem by its code (text/user-messages.ts, `file.*`). */
export function problemWords(code: MessageCode, params: MessageParams = {}): ProblemWords {
  return codedMessage(code, params);
}

export type QuestionFileOutcome =
  { ok: true; questions: QuestionInput[] } | { ok: false; problems: FileProblem[] };

/** Thrown inside this module and by readFileRows: the file's problems, sorted. */
export class FileRefusal extends Error {
  override readonly name = "FileRefusal";
  constructor(readonly problems: FileProblem[]) {
    super(problems.map((p) => p.message).join("; "));
  }
}

function fileProblem(words: ProblemWords, field = "(file)"): FileProblem {
  return { row: 0, line: 1, field, ...words };
}

/** The refusal of a file over the byte limit, before it is read; none within it. */
export function importSizeProblem(bytes: number): FileProblem | undefined {
  if (bytes <= QUESTION_LIMITS.importBytes) return undefined;
  return fileProblem(problemWords("file.too_large", { bytes, max: QUESTION_LIMITS.importBytes }));
}

/** One data row before validation: its number as the server counts it, and its fields. */
export interface RawRow {
  row: number;
  value: unknown;
}

export interface FileRows {
  rows: RawRow[];
  /** Rows that could not even be read (a JSONL line that is not JSON, a CSV row too long). */
  problems: FileProblem[];
  /** The file line a row starts on; for CSV worked out at the first call, as only problems need it. */
  lineOf: (row: number) => number;
}

/**
 * Reads a question file, all or nothing: every bad row (invalid value, duplicate question,
 * undecodable bytes) is a problem, and no question is returned unless every row is good. Unknown
 * columns and keys are ignored.
 */
export function questionFileOutcome(
  content: string | Uint8Array,
  format: QuestionFormat,
): QuestionFileOutcome {
  let raw: FileRows;
  try {
    raw = readFileRows(content, format);
  } catch (error) {
    if (error instanceof FileRefusal) return { ok: false, problems: error.problems };
    throw error;
  }
  const problems = [...raw.problems];
  const parsed: { at: RawRow; question: QuestionInput }[] = [];
  for (const at of raw.rows) {
    const result = questionOf(at.value);
    if (Array.isArray(result)) {
      problems.push(...result.map((p) => ({ row: at.row, line: raw.lineOf(at.row), ...p })));
    } else parsed.push({ at, question: result });
  }
  const atOf = (i: number) => (parsed[i - 1] as { at: RawRow }).at;
  for (const duplicate of findDuplicates(parsed.map((p) => p.question))) {
    const { row } = atOf(duplicate.row);
    const earlier = atOf(duplicate.duplicate_of_row as number).row;
    problems.push({
      row,
      line: raw.lineOf(row),
      field: "question_text",
      ...problemWords("file.duplicate", { earlier }),
      earlier: { row: earlier, line: raw.lineOf(earlier) },
    });
  }
  if (problems.length > 0) return { ok: false, problems: sortProblems(problems) };
  return { ok: true, questions: parsed.map((p) => p.question) };
}

function sortProblems(problems: FileProblem[]): FileProblem[] {
  return problems.sort((a, b) => a.row - b.row);
}

/**
 * The rows of an import file before validation (for questions, or answers to judge): size,
 * encoding and emptiness checked, every unreadable row named; throws a FileRefusal. CSV rows are
 * objects keyed by the header's names as written.
 */
export function readFileRows(
  content: string | Uint8Array,
  format: QuestionFormat,
  /** A CSV header's field name; the question's must map to "question_text". */
  fieldOfHeader: (name: string) => string | undefined = questionFieldOf,
): FileRows {
  const size = typeof content === "string" ? utf8Length(content) : content.length;
  const tooLarge = importSizeProblem(size);
  if (tooLarge) throw new FileRefusal([tooLarge]);
  const text = typeof content === "string" ? stripBom(content) : decodeUtf8(content, format);
  if (text.trim() === "") throw new FileRefusal([fileProblem(problemWords("file.empty"))]);

  const raw = rawRowsOf(text, format, fieldOfHeader);
  if (raw.rows.length === 0 && raw.problems.length === 0) {
    const code = format === "csv" ? "file.header_only" : "file.no_questions";
    throw new FileRefusal([fileProblem(problemWords(code))]);
  }
  const count = raw.rows.length + raw.problems.length;
  if (count > QUESTION_LIMITS.questionsPerSet) {
    throw new FileRefusal([
      fileProblem(
        problemWords("file.too_many_rows", { count, max: QUESTION_LIMITS.questionsPerSet }),
      ),
    ]);
  }
  return raw;
}

/** Bytes of `text` as UTF-8, without encoding it (a lone surrogate counts as U+FFFD's 3). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
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
    const seen = new Set<number>();
    const problems: FileProblem[] = [];
    for (const line of lines) {
      const row = rowOf(line);
      if (seen.has(row)) continue;
      seen.add(row);
      problems.push({
        row,
        line,
        field: "(row)",
        ...problemWords("file.not_utf8"),
      });
    }
    throw new FileRefusal(problems);
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
  let starts: number[];
  try {
    starts = csvRecords(text, { relax_column_count: true }).starts();
  } catch {
    return (line) => line - 1;
  }
  // Record 0 is the header, so the index of the last record starting at or before the line is
  // the data row.
  return (line) => {
    let index = 0;
    while (index + 1 < starts.length && (starts[index + 1] as number) <= line) index++;
    return index;
  };
}

/**
 * CSV records with the file line each starts on. csv-parse counts bytes reliably but not lines
 * ("\r\n" counts twice), so lines come from the byte offset at which each record ends. A parse
 * error carries `line`, the line where the record that failed starts.
 */
function csvRecords(
  text: string,
  options: { relax_column_count: boolean },
): { records: string[][]; starts: () => number[] } {
  const ends: number[] = [];
  const startsOf = () => lineStarts(new TextEncoder().encode(text), ends);
  try {
    const records = parse(text, {
      skip_empty_lines: true,
      ...options,
      on_record: (record: string[], context: { bytes: number }) => {
        ends.push(context.bytes);
        return record;
      },
    }) as string[][];
    let starts: number[] | undefined;
    return { records, starts: () => (starts ??= startsOf()) };
  } catch (error) {
    if (error instanceof CsvError) {
      Object.assign(error, { line: startsOf()[ends.length] ?? 1 });
    }
    throw error;
  }
}

/**
 * The line each record starts on: record k starts after record k-1's last byte, past the empty
 * lines skipped; one more entry than `ends`, for a record that failed after them.
 */
function lineStarts(bytes: Uint8Array, ends: readonly number[]): number[] {
  const starts: number[] = [];
  let line = 1;
  let at = 0;
  for (const offset of [0, ...ends]) {
    for (; at < offset; at++) if (isLineBreak(bytes, at)) line++;
    for (; at < bytes.length && (bytes[at] === 0x0a || bytes[at] === 0x0d); at++) {
      if (isLineBreak(bytes, at)) line++;
    }
    starts.push(line);
  }
  return starts;
}

/** A line ends at "\n", at the "\n" of "\r\n", or at a lone "\r". */
function isLineBreak(bytes: Uint8Array, at: number): boolean {
  return bytes[at] === 0x0a || (bytes[at] === 0x0d && bytes[at + 1] !== 0x0a);
}

function rawRowsOf(
  text: string,
  format: QuestionFormat,
  fieldOfHeader: (name: string) => string | undefined,
): FileRows {
  switch (format) {
    case "csv":
      return csvRows(text, fieldOfHeader);
    case "jsonl":
      return jsonlRows(text);
    case "json":
      return jsonRows(text);
  }
}

function csvRows(text: string, fieldOfHeader: (name: string) => string | undefined): FileRows {
  let records: string[][];
  let starts: () => number[];
  try {
    ({ records, starts } = csvRecords(text, { relax_column_count: true }));
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // `records` counts the header, so it is the number of the data row that failed.
    const { records: row = 0, line = 1 } = error as CsvError & { records?: number; line?: number };
    const words = problemWords("file.not_csv", { detail: error.message });
    if (row === 0) throw new FileRefusal([fileProblem(words, "(header)")]);
    throw new FileRefusal([{ row, line, field: "(row)", ...words }]);
  }
  const [header = [], ...data] = records;
  const columns = csvColumns(header, fieldOfHeader);
  const rows: RawRow[] = [];
  const problems: FileProblem[] = [];
  // Record 0 is the header, so a data row's number is its record's index.
  const lineOf = (row: number) => starts()[row] as number;
  data.forEach((cells, index) => {
    const row = index + 1;
    const extra = cells.slice(header.length).some((cell) => cell.trim() !== "");
    if (extra) {
      problems.push({
        row,
        line: lineOf(row),
        field: "(row)",
        ...problemWords("file.extra_fields", { fields: cells.length, header: header.length }),
      });
      return;
    }
    const value: Record<string, string> = {};
    // A formula-like cell our CSV exports defused ('=...) reads back as it was written.
    for (const [column, field] of columns) value[field] = fromSpreadsheetSafe(cells[column] ?? "");
    rows.push({ row, value });
  });
  return { rows, problems, lineOf };
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
      throw new FileRefusal([
        fileProblem(problemWords("file.header_twice", { field, earlier, name }), "(header)"),
      ]);
    }
    named.set(field, name);
    columns.push([column, field]);
  });
  if (!named.has("question_text")) {
    const found = header.map((h) => JSON.stringify(h)).join(", ");
    throw new FileRefusal([
      fileProblem(
        problemWords("file.header_no_question", {
          column: "question_text",
          alias: "question",
          found,
        }),
        "(header)",
      ),
    ]);
  }
  return columns;
}

function jsonlRows(text: string): FileRows {
  const rows: RawRow[] = [];
  const problems: FileProblem[] = [];
  text.split(/\r?\n/).forEach((source, index) => {
    if (source.trim() === "") return;
    const at = { row: index + 1, line: index + 1 };
    const json = parseStrictJson(source);
    if (json.ok) rows.push({ row: at.row, value: json.value });
    else if (json.kind === "malformed") {
      problems.push({
        ...at,
        field: "(row)",
        ...problemWords("file.not_json_line", { detail: json.message }),
      });
    } else {
      problems.push({
        ...at,
        field: json.path,
        ...problemWords("file.json_value", { detail: json.message }),
      });
    }
  });
  return { rows, problems, lineOf: (row) => row };
}

function jsonRows(text: string): FileRows {
  const json = parseStrictJson(text);
  if (!json.ok && json.kind === "malformed") {
    const line = lineOfError(text, json.message);
    throw new FileRefusal([
      fileProblem(
        line === undefined
          ? problemWords("file.not_json", { detail: json.message })
          : problemWords("file.not_json_at", { detail: json.message, line }),
      ),
    ]);
  }
  if (!json.ok) {
    throw new FileRefusal([
      fileProblem(problemWords("file.json_value_at", { path: json.path, detail: json.message })),
    ]);
  }
  const value = json.value;
  const list =
    typeof value === "object" && value !== null && !Array.isArray(value) && "questions" in value
      ? value.questions
      : value;
  if (!Array.isArray(list)) {
    throw new FileRefusal([fileProblem(problemWords("file.not_a_list"))]);
  }
  const rows = list.map((item, index) => ({ row: index + 1, value: item }));
  return { rows, problems: [], lineOf: (item) => item };
}

/** The line of a JSON.parse error's character position, when it gives one and no line. */
function lineOfError(text: string, message: string): number | undefined {
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined || /line \d+/.test(message)) return undefined;
  let line = 1;
  const end = Math.min(Number(position), text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** What a value is, as "expected text, got …" names it. */
function kindOf(value: unknown) {
  if (Array.isArray(value)) return messagePart("file.kind.list");
  if (typeof value === "object") return messagePart("file.kind.object");
  const shown = JSON.stringify(value) ?? String(value);
  if (typeof value === "number") return messagePart("file.kind.number", { value: shown });
  if (typeof value === "boolean") return messagePart("file.kind.boolean", { value: shown });
  return messagePart("file.kind.value", { type: typeof value, value: shown });
}

export type RowProblem = Omit<FileProblem, "row" | "line">;

/**
 * A value the schema refused, by what the schema says of it (`detail`: its English words). A field
 * absent from the row is `missing`.
 */
export function schemaProblem(
  issue: { code: string; message: string; maximum?: unknown; minimum?: unknown; origin?: unknown },
  missing: boolean,
): ProblemWords {
  const detail = issue.message;
  if (missing) return problemWords("file.missing", { detail });
  if (detail === NUL_MESSAGE) return problemWords("file.nul");
  const { maximum: max, minimum: min, origin } = issue;
  if (issue.code === "too_big" && typeof max === "number") {
    if (origin === "string") return problemWords("file.too_long", { max });
    if (origin === "array") return problemWords("file.too_many", { max });
  }
  if (issue.code === "too_small" && origin === "string" && typeof min === "number") {
    // A schema's own words for an empty value ("a non-empty reference") say it best.
    return min === 1
      ? problemWords("file.empty_value", { detail })
      : problemWords("file.too_short", { min });
  }
  if (issue.code === "invalid_type") return problemWords("file.wrong_type", { detail });
  return problemWords("file.invalid", { detail });
}

/** The schemas' refusal of a NUL character (answers/schema.ts), worded by its own code. */
const NUL_MESSAGE = "contains a NUL character (\\u0000), which cannot be stored";

/** A validated question, or the problems of its row (the row and line are added later). */
function questionOf(value: unknown): QuestionInput | RowProblem[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [
      { field: "(row)", ...problemWords("file.question_not_object", { field: "question_text" }) },
    ];
  }
  const problems: RowProblem[] = [];
  const input: Partial<Record<Exclude<QuestionField, QuestionListField>, string>> &
    Partial<Record<QuestionListField, string[]>> = {};
  const named = namedCells(value, questionFieldOf);
  problems.push(...named.problems);
  for (const [field, cell] of named.cells) {
    if (isQuestionListField(field)) {
      const items = referenceListOf(cell, QUESTION_LIST_FIELDS[field]);
      if (!Array.isArray(items)) problems.push({ field, ...items });
      else if (items.length > 0) input[field] = items;
      continue;
    }
    if (typeof cell !== "string") {
      // Types are strict on every surface: 123 or true is not a question (issue 12 §3.10).
      problems.push({ field, ...problemWords("file.expected_text", { kind: kindOf(cell) }) });
      continue;
    }
    if (cell.includes("\u0000")) {
      // PostgreSQL text cannot hold NUL (a CSV cell can).
      problems.push({ field, ...problemWords("file.nul") });
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
  return result.error.issues.map((issue): RowProblem => {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "(row)";
    const top = String(issue.path[0] ?? "") as QuestionField;
    const given = isQuestionListField(top)
      ? input[top]
      : input[field as Exclude<QuestionField, QuestionListField>];
    if (given === undefined) return { field, ...problemWords("file.missing_question") };
    if (field === "question_type") return { field, ...unknownTypeProblem(writtenType) };
    if (field === "question_text" && issue.code === "too_small") {
      return { field, ...problemWords("file.empty_question") };
    }
    return { field, ...schemaProblem(issue as Parameters<typeof schemaProblem>[0], false) };
  });
}

/**
 * A row's cells under their fields' names (`fieldOf` maps a column's spellings to its field), empty
 * cells left out; a field given under two spellings is a problem, not a silent choice.
 */
export function namedCells<F extends string>(
  row: object,
  fieldOf: (key: string) => F | undefined,
): { cells: [F, unknown][]; problems: RowProblem[] } {
  const cells: [F, unknown][] = [];
  const problems: RowProblem[] = [];
  const source = new Map<F, string>();
  for (const [key, cell] of Object.entries(row)) {
    const field = fieldOf(key);
    if (field === undefined || cell === null || cell === undefined) continue;
    const earlier = source.get(field);
    if (earlier !== undefined) {
      problems.push({ field, ...problemWords("file.given_twice", { earlier, key }) });
      continue;
    }
    source.set(field, key);
    cells.push([field, cell]);
  }
  return { cells, problems };
}
