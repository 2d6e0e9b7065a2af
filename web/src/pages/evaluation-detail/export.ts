import Papa from "papaparse";
import type { EvaluationResult } from "../../api/types";

// Export of the filtered results, made in the browser from the pages the API returns.

export const EXPORT_COLUMNS = [
  "position",
  "question_type",
  "question_text",
  "ground_truth",
  "status",
  "score",
  "passed",
  "gate_status",
  "rag_answer",
  "citations",
  "latency_ms",
  "error",
] as const;

/** One CSV row per result; a missing score stays empty (an error is not a zero). */
export function resultsToCsv(results: readonly EvaluationResult[]): string {
  const rows = results.map((r) => [
    r.position + 1,
    r.question_type,
    r.question_text,
    r.ground_truth,
    r.status,
    r.score ?? "",
    r.passed === null ? "" : String(r.passed),
    r.gate_status ?? "",
    r.rag_answer ?? "",
    (r.rag_citations ?? []).join(" "),
    r.latency_ms ?? "",
    r.error ?? "",
  ]);
  // A leading = + - @ would make a spreadsheet run the cell as a formula.
  const safe = rows.map((row) =>
    row.map((cell) => (typeof cell === "string" && /^[=+\-@]/.test(cell) ? `'${cell}` : cell)),
  );
  return Papa.unparse({ fields: [...EXPORT_COLUMNS], data: safe }, { newline: "\n" });
}

export function resultsToJson(results: readonly EvaluationResult[]): string {
  return JSON.stringify(results, null, 2);
}

export function download(filename: string, content: string, type: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
