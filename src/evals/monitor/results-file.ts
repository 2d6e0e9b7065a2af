import { stringify } from "csv-stringify/sync";
import { spreadsheetSafe } from "../../formats/index.js";
import { JUDGE_KINDS } from "../../judges/index.js";
import type { EvaluationResultRow } from "../../store/index.js";

// A run's results as a spreadsheet: one row per question, the judges' scores in columns, for
// people who read results outside ragjudge. (The JSON export is the API's own result shape.)
// Answers and questions come from bots and users: formula-like cells are defused. `position`
// counts from 1, as the web app and the CLI's CSV number questions (the JSON keeps the API's 0).

const scoreOf = (judges: unknown, kind: string): number | "" => {
  const judge = (judges as Record<string, { score?: unknown; outcome?: string }> | null)?.[kind];
  return judge?.outcome === "ok" && typeof judge.score === "number" ? judge.score : "";
};

export function resultsCsv(rows: readonly EvaluationResultRow[]): string {
  const kinds = JUDGE_KINDS.filter((kind) =>
    rows.some((row) => (row.judges as Record<string, unknown> | null)?.[kind] !== undefined),
  );
  const header = [
    "position",
    "question_id",
    "question_type",
    "question_text",
    "ground_truth",
    "status",
    "score",
    "passed",
    "gate_status",
    ...kinds.map((kind) => `${kind}_score`),
    "answer",
    "citations",
    "latency_ms",
    "error",
  ];
  const records = rows.map((row) => [
    row.position + 1,
    row.question_id,
    row.question_type,
    row.question_text,
    row.ground_truth,
    row.status,
    row.score ?? "",
    row.passed === null ? "" : String(row.passed),
    row.gate_status ?? "",
    ...kinds.map((kind) => scoreOf(row.judges, kind)),
    row.rag_answer ?? "",
    Array.isArray(row.rag_citations) ? row.rag_citations.join(" ") : "",
    row.latency_ms === null ? "" : Math.round(row.latency_ms),
    row.error ?? "",
  ]);
  return stringify([header, ...records.map((record) => record.map(spreadsheetSafe))]);
}
