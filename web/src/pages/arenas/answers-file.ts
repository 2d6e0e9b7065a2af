import Papa from "papaparse";
import { fromSpreadsheetSafe } from "../../../../src/formats/spreadsheet-cells";

// An answers file (issue 14 §1: `.jsonl`, `.json` or `.csv` of {question, answer, ground_truth?,
// contexts?, ...}) read in the browser, as FileUploadParser reads question files. Only the shape
// is checked here (each row an object); the server validates every field all-or-nothing and names
// the row at fault, which `rowOf` turns back into this file's line.

export type AnswersFileFormat = "csv" | "json" | "jsonl";

export interface AnswersFile {
  rows: Record<string, unknown>[];
  /** rows[i] came from this line of the file (CSV, JSONL) or item of its array (JSON), from 1. */
  lines: number[];
}

export interface AnswersFileIssue {
  line: number;
  message: string;
}

export type AnswersFileOutcome =
  { ok: true; file: AnswersFile } | { ok: false; issues: AnswersFileIssue[] };

export function answersFormatOf(name: string): AnswersFileFormat | undefined {
  const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  return ext === "csv" || ext === "json" || ext === "jsonl" ? ext : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A CSV cell as the server reads it: the apostrophe ragjudge's exports put before a formula-like
 * text comes off, and a cell holding a JSON list (contexts, citations, ground_truths) becomes the
 * list.
 */
function csvCell(key: string, raw: string): unknown {
  const value = fromSpreadsheetSafe(raw);
  const text = value.trim();
  if (
    ["contexts", "citations", "ground_truths", "references"].includes(key) &&
    text.startsWith("[")
  ) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

export function parseAnswersFile(text: string, format: AnswersFileFormat): AnswersFileOutcome {
  const rows: Record<string, unknown>[] = [];
  const lines: number[] = [];
  const issues: AnswersFileIssue[] = [];
  const body = text.replace(/^\uFEFF/, "");
  if (format === "jsonl") {
    body.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        const value: unknown = JSON.parse(line);
        if (isObject(value)) {
          rows.push(value);
          lines.push(i + 1);
        } else issues.push({ line: i + 1, message: "not a JSON object" });
      } catch (error) {
        issues.push({ line: i + 1, message: `not JSON (${(error as Error).message})` });
      }
    });
  } else if (format === "json") {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (error) {
      return {
        ok: false,
        issues: [{ line: 1, message: `not JSON (${(error as Error).message})` }],
      };
    }
    if (!Array.isArray(value)) {
      return { ok: false, issues: [{ line: 1, message: "a JSON array of answers" }] };
    }
    value.forEach((item: unknown, i) => {
      if (isObject(item)) {
        rows.push(item);
        lines.push(i + 1);
      } else issues.push({ line: i + 1, message: "not a JSON object" });
    });
  } else {
    const parsed = Papa.parse<Record<string, string>>(body, {
      header: true,
      skipEmptyLines: "greedy",
      transformHeader: (h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, "_"),
    });
    for (const error of parsed.errors) {
      issues.push({ line: (error.row ?? 0) + 2, message: error.message });
    }
    parsed.data.forEach((row, i) => {
      rows.push(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, csvCell(k, v)])));
      lines.push(i + 2); // the header is line 1
    });
  }
  if (issues.length > 0) return { ok: false, issues };
  if (rows.length === 0)
    return { ok: false, issues: [{ line: 1, message: "no answers in the file" }] };
  return { ok: true, file: { rows, lines } };
}

/** The file line of the server's row number (the 1-based index of the answers it was sent). */
export function rowOf(file: AnswersFile, row: number): number {
  return file.lines[row - 1] ?? row;
}
