import { stringify } from "csv-stringify/sync";
import { spreadsheetSafe } from "../../formats/index.js";
import type { EvaluationReport } from "./report.js";

/** Each result's retrieval cutoff and metrics, blank when its question names no relevant items. */
const RETRIEVAL_COLUMNS = ["k", "hit_rate", "recall", "precision", "mrr", "ndcg"] as const;

/**
 * One row per question: the answer, each judge's raw score and verdict, and people's labels
 * (human_score_1-10, human_score_1-5, human_passed, human_note), for a spreadsheet or a labelling
 * round-trip. Judge columns are the union of the run's judges. Questions, answers and notes come
 * from users and bots: a cell a spreadsheet would run as a formula starts with `'`.
 */
export function renderCsvReport(report: EvaluationReport): string {
  const judges = [...new Set(report.results.flatMap((r) => Object.keys(r.judges)))].sort();
  const header = [
    "position",
    "question_id",
    "question",
    "ground_truth",
    "status",
    "answer",
    "gate",
    "score",
    "passed",
    ...judges.flatMap((judge) => [`${judge}_raw_score`, `${judge}_passed`]),
    ...RETRIEVAL_COLUMNS.map((name) => `retrieval_${name}`),
    "cost_usd",
    "prompt_tokens",
    "cached_tokens",
    "completion_tokens",
    "price_unknown_for",
    "human_score_1-10",
    "human_score_1-5",
    "human_passed",
    "human_note",
    "labelled_by",
    "error",
  ];
  const label = (r: EvaluationReport["results"][number], scale: string) =>
    r.human_labels.find((l) => l.scale === scale);
  const rows = report.results.map((r) => {
    const notes = r.human_labels.map((l) => l.note).filter((note): note is string => !!note);
    return [
      r.position + 1,
      r.question_id,
      r.question,
      r.ground_truth,
      r.status,
      r.answer ?? "",
      r.gate ?? "",
      r.score ?? "",
      r.passed ?? "",
      ...judges.flatMap((judge) => [
        r.judges[judge]?.raw_score ?? "",
        r.judges[judge]?.passed ?? "",
      ]),
      ...RETRIEVAL_COLUMNS.map((name) => r.retrieval?.[name] ?? ""),
      r.cost?.cost_usd ?? "",
      r.cost?.prompt_tokens ?? "",
      r.cost?.cached_tokens ?? "",
      r.cost?.completion_tokens ?? "",
      r.cost?.unpriced_models.join(" ") ?? "",
      label(r, "1-10")?.score ?? "",
      label(r, "1-5")?.score ?? "",
      label(r, "pass_fail")?.passed ?? "",
      notes.join(" / "),
      [...new Set(r.human_labels.map((l) => l.labelled_by))].join(", "),
      r.error ?? "",
    ];
  });
  return stringify([header, ...rows.map((row) => row.map(spreadsheetSafe))], {
    cast: { boolean: (value) => String(value) },
  });
}
