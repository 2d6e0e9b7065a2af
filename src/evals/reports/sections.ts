import { formatCost, formatUsd } from "../../llm/index.js";
import { millisecondsCell, oneLine, passedCell, percentCell, scoreCell } from "./cells.js";
import { type EvaluationReport, OFFLINE_MEASURES, type ReportResult } from "./report.js";

/** One table of a human report: the table and markdown renderers lay out the same sections. */
export interface ReportSection {
  title: string;
  headers: string[];
  rows: string[][];
  /** Columns holding numbers. */
  alignRight: number[];
}

const GATE_ORDER = ["pass", "partial", "fail", "skipped", "none"];

function overview(report: EvaluationReport): ReportSection {
  const { evaluation: e, summary: s } = report;
  const rows: string[][] = [
    ["evaluation", `${e.name} (${e.id})`],
    ["status", e.status_reason ? `${e.status}: ${e.status_reason}` : e.status],
    ["bot", e.bot_id],
    ["judges", e.judges.join(", ") || "-"],
    [
      "questions",
      `${s.total} total, ${s.completed} completed, ${s.scored} scored` +
        (s.pending + s.running > 0 ? `, ${s.pending + s.running} unfinished` : ""),
    ],
    ["errors", `${s.errors.bot} bot, ${s.errors.judge} judge`],
    ...(s.fallbacks > 0
      ? [["fallbacks", `${s.fallbacks} answered with a failing model replaced (llm_fallback)`]]
      : []),
    ["average score", scoreCell(s.average_score)],
    ["pass rate", percentCell(s.pass_rate)],
    [
      "latency",
      `mean ${millisecondsCell(s.latency_ms.mean)}, p50 ${millisecondsCell(s.latency_ms.p50)}, p95 ${millisecondsCell(s.latency_ms.p95)}`,
    ],
  ];
  if (s.usage.calls > 0) {
    rows.push([
      "LLM usage",
      `${s.usage.calls} calls (${s.usage.attempts} HTTP requests), ${s.usage.prompt_tokens + s.usage.completion_tokens} tokens`,
    ]);
  }
  const total = s.cost.total;
  if (total.prompt_tokens + total.completion_tokens > 0) {
    const perQuestion = s.cost.per_question;
    rows.push([
      "cost",
      formatCost(total) +
        (perQuestion.mean_usd !== null && total.cost_usd > 0
          ? ` (per question: mean ${formatUsd(perQuestion.mean_usd)}, max ${formatUsd(perQuestion.max_usd ?? 0)})`
          : ""),
    ]);
  }
  return { title: "Summary", headers: ["field", "value"], rows, alignRight: [] };
}

/** Tokens and cost by part (the bot, each judge), role and model. */
function cost(report: EvaluationReport): ReportSection | undefined {
  const lines = report.summary.cost.by_model;
  if (lines.length === 0) return undefined;
  return {
    title: "Cost (USD; prices from the run's price table, docs/cost.md)",
    headers: ["part", "role", "model", "calls", "prompt", "cached", "completion", "cost"],
    rows: lines.map((line) => [
      line.part === "bot" ? "bot" : `judge ${line.judge ?? ""}`.trim(),
      line.role,
      line.model,
      String(line.calls),
      String(line.prompt_tokens),
      String(line.cached_tokens),
      String(line.completion_tokens),
      line.cost_usd === null ? "price unknown" : formatUsd(line.cost_usd),
    ]),
    alignRight: [3, 4, 5, 6, 7],
  };
}

function judges(report: EvaluationReport): ReportSection | undefined {
  const entries = Object.entries(report.summary.judges);
  if (entries.length === 0) return undefined;
  return {
    title: "Judges (means over scored questions)",
    headers: ["judge", "counted", "mean score", "mean raw", "pass rate", ...OFFLINE_MEASURES],
    rows: entries.map(([kind, block]) => [
      kind,
      String(block?.count ?? 0),
      scoreCell(block?.mean_score),
      scoreCell(block?.mean_raw, 2),
      percentCell(block?.pass_rate),
      ...OFFLINE_MEASURES.map((m) => scoreCell(block?.metrics[m])),
    ]),
    alignRight: [1, 2, 3, 4, 5, 6, 7, 8],
  };
}

function gate(report: EvaluationReport): ReportSection | undefined {
  const counts = report.summary.gate;
  const rank = (key: string) => (GATE_ORDER.includes(key) ? GATE_ORDER.indexOf(key) : 99);
  const keys = Object.keys(counts).sort((a, b) => rank(a) - rank(b));
  if (keys.length === 0) return undefined;
  const total = keys.reduce((sum, key) => sum + (counts[key] ?? 0), 0);
  return {
    title: "Gate verdicts (scored questions)",
    headers: ["verdict", "questions", "share"],
    rows: keys.map((key) => [
      key,
      String(counts[key] ?? 0),
      percentCell((counts[key] ?? 0) / total),
    ]),
    alignRight: [1, 2],
  };
}

function byType(report: EvaluationReport): ReportSection | undefined {
  const entries = Object.entries(report.summary.by_question_type).sort(([a], [b]) =>
    a.localeCompare(b),
  );
  if (entries.length === 0) return undefined;
  return {
    title: "By question type",
    headers: ["type", "questions", "scored", "average score", "pass rate"],
    rows: entries.map(([type, t]) => [
      type,
      String(t.total),
      String(t.scored),
      scoreCell(t.average_score),
      percentCell(t.pass_rate),
    ]),
    alignRight: [1, 2, 3, 4],
  };
}

function errors(report: EvaluationReport, limit: number): ReportSection | undefined {
  const failed = report.results.filter(
    (r) => r.status === "BOT_ERROR" || r.status === "JUDGE_ERROR",
  );
  if (failed.length === 0) return undefined;
  const rows = failed
    .slice(0, limit)
    .map((r) => [String(r.position + 1), r.status, oneLine(r.error ?? "-", 120)]);
  if (failed.length > limit) rows.push(["…", `${failed.length - limit} more`, ""]);
  return { title: "Errors", headers: ["#", "status", "error"], rows, alignRight: [0] };
}

const hasOffline = (results: readonly ReportResult[]) =>
  results.some((r) => r.judges.offline !== undefined);

/** The compact per-question table: one row each, long text cut. */
export function questionsSection(report: EvaluationReport, questionChars = 60): ReportSection {
  const offline = hasOffline(report.results);
  const costed = report.results.some((r) => r.cost !== null);
  const headers = ["#", "type", "question", "status", "gate", "score", "passed"];
  if (offline) headers.push("f1", "grounded");
  if (costed) headers.push("cost");
  headers.push("note");
  const rows = report.results.map((r) => {
    const row = [
      String(r.position + 1),
      r.question_type,
      oneLine(r.question, questionChars),
      r.status,
      r.gate ?? "-",
      scoreCell(r.score),
      passedCell(r.passed),
    ];
    if (offline) {
      row.push(
        scoreCell(r.judges.offline?.metrics.f1),
        scoreCell(r.judges.offline?.metrics.groundedness),
      );
    }
    if (costed) row.push(r.cost ? formatCost(r.cost) : "-");
    row.push(oneLine(r.error ?? "", 60) || "-");
    return row;
  });
  const alignRight = offline ? [0, 5, 7, 8] : [0, 5];
  if (costed) alignRight.push(offline ? 9 : 7);
  return { title: "Questions", headers, rows, alignRight };
}

function checks(report: EvaluationReport): ReportSection | undefined {
  const rows: string[][] = (report.thresholds ?? []).map((c) => [
    c.flag,
    c.ok ? "ok" : "FAILED",
    c.message,
  ]);
  const baseline = report.baseline;
  if (baseline) {
    rows.push([
      "--baseline",
      baseline.regressions.length === 0 ? "ok" : "FAILED",
      `${baseline.regressions.length} regression(s), ${baseline.improvements.length} improvement(s) ` +
        `in ${baseline.matched} matched question(s); average ${scoreCell(baseline.average_score.baseline)} -> ` +
        `${scoreCell(baseline.average_score.current)}, pass rate ${percentCell(baseline.pass_rate.baseline)} -> ` +
        `${percentCell(baseline.pass_rate.current)}`,
    ]);
  }
  if (rows.length === 0) return undefined;
  return { title: "Checks", headers: ["check", "result", "detail"], rows, alignRight: [] };
}

function changes(
  report: EvaluationReport,
  kind: "regressions" | "improvements",
): ReportSection | undefined {
  const list = report.baseline?.[kind] ?? [];
  if (list.length === 0) return undefined;
  return {
    title:
      kind === "regressions" ? "Regressions against the baseline" : "Improvements on the baseline",
    headers: ["#", "question", "change"],
    rows: list.map((c) => [String(c.current.position + 1), oneLine(c.question, 80), c.reason]),
    alignRight: [0],
  };
}

/** The summary's sections, in reading order; empty ones are left out. */
export function summarySections(report: EvaluationReport, errorLimit = 10): ReportSection[] {
  return [
    overview(report),
    judges(report),
    cost(report),
    gate(report),
    byType(report),
    errors(report, errorLimit),
    checks(report),
    changes(report, "regressions"),
    changes(report, "improvements"),
  ].filter((section): section is ReportSection => section !== undefined);
}
