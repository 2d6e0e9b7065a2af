import { claimReportRows } from "../../judges/index.js";
import { formatCost, formatUsd } from "../../llm/index.js";
import { millisecondsCell, oneLine, passedCell, percentCell, scoreCell } from "./cells.js";
import type { MessageLanguage } from "../../text/index.js";
import { type EvaluationReport, OFFLINE_MEASURES, type ReportResult } from "./report.js";
import { reportWord as word } from "./report-words.js";

/** One table of a human report: the table and markdown renderers lay out the same sections. */
export interface ReportSection {
  title: string;
  headers: string[];
  rows: string[][];
  /** Columns holding numbers. */
  alignRight: number[];
}

const GATE_ORDER = ["pass", "partial", "fail", "skipped", "none"];

function overview(report: EvaluationReport, lang: MessageLanguage): ReportSection {
  const { evaluation: e, summary: s } = report;
  const unfinished = s.pending + s.running;
  const rows: string[][] = [
    [word(lang, "evaluation"), `${e.name} (${e.id})`],
    [word(lang, "status"), e.status_reason ? `${e.status}: ${e.status_reason}` : e.status],
    [word(lang, "bot"), e.bot_id],
    [word(lang, "judges"), e.judges.join(", ") || "-"],
    [
      word(lang, "questions"),
      word(lang, "questionCounts", { total: s.total, completed: s.completed, scored: s.scored }) +
        (unfinished > 0 ? word(lang, "unfinished", { n: unfinished }) : ""),
    ],
    [word(lang, "errors"), word(lang, "errorCounts", { bot: s.errors.bot, judge: s.errors.judge })],
    ...(s.fallbacks > 0
      ? [[word(lang, "fallbacks"), word(lang, "fallbackCount", { n: s.fallbacks })]]
      : []),
    [word(lang, "averageScore"), scoreCell(s.average_score)],
    [word(lang, "passRate"), percentCell(s.pass_rate)],
    [
      word(lang, "latency"),
      word(lang, "latencyFigures", {
        mean: millisecondsCell(s.latency_ms.mean),
        p50: millisecondsCell(s.latency_ms.p50),
        p95: millisecondsCell(s.latency_ms.p95),
      }),
    ],
  ];
  if (s.usage.calls > 0) {
    rows.push([
      word(lang, "usage"),
      word(lang, "usageFigures", {
        calls: s.usage.calls,
        attempts: s.usage.attempts,
        tokens: s.usage.prompt_tokens + s.usage.completion_tokens,
      }),
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
  return {
    title: word(lang, "summary"),
    headers: [word(lang, "field"), word(lang, "value")],
    rows,
    alignRight: [],
  };
}

/** Tokens and cost by part (the bot, each judge), role and model. */
function cost(report: EvaluationReport): ReportSection | undefined {
  const lines = report.summary.cost.by_model;
  if (lines.length === 0) return undefined;
  // Answers from ragjudge's response cache cost nothing: a column says how many, when there are any.
  const fromCache = lines.some((line) => (line.cache_hits ?? 0) > 0);
  return {
    title: "Cost (USD; prices from the run's price table, docs/cost.md)",
    headers: [
      "part",
      "role",
      "model",
      "calls",
      "prompt",
      "cached",
      "completion",
      ...(fromCache ? ["from response cache (free)"] : []),
      "cost",
    ],
    rows: lines.map((line) => [
      line.part === "bot" ? "bot" : `judge ${line.judge ?? ""}`.trim(),
      line.role,
      line.model,
      String(line.calls),
      String(line.prompt_tokens),
      String(line.cached_tokens),
      String(line.completion_tokens),
      ...(fromCache ? [`${line.cache_hits ?? 0} calls, ${line.cache_hit_tokens ?? 0} tokens`] : []),
      line.cost_usd === null ? "price unknown" : formatUsd(line.cost_usd),
    ]),
    alignRight: fromCache ? [3, 4, 5, 6, 8] : [3, 4, 5, 6, 7],
  };
}

function judges(report: EvaluationReport, lang: MessageLanguage): ReportSection | undefined {
  const entries = Object.entries(report.summary.judges);
  if (entries.length === 0) return undefined;
  return {
    title: word(lang, "judgesTitle"),
    headers: [
      word(lang, "judge"),
      word(lang, "counted"),
      word(lang, "meanScore"),
      word(lang, "meanRaw"),
      word(lang, "passRate"),
      ...OFFLINE_MEASURES,
    ],
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

/** The metrics' names as a person reads them, in the summary's order. */
const RETRIEVAL_LABELS = {
  hit_rate: "hit rate",
  recall: "recall",
  precision: "precision",
  mrr: "MRR",
  ndcg: "nDCG",
} as const;

function retrieval(report: EvaluationReport, lang: MessageLanguage): ReportSection | undefined {
  const summary = report.summary.retrieval;
  if (!summary) return undefined;
  const at = summary.k === null ? "" : `@${summary.k}`;
  return {
    title: word(lang, "retrievalTitle", { n: summary.count }),
    headers: [word(lang, "metric"), word(lang, "mean")],
    rows: Object.entries(RETRIEVAL_LABELS).map(([name, label]) => [
      name === "mrr" ? label : `${label}${at}`,
      scoreCell(summary.means[name as keyof typeof RETRIEVAL_LABELS]),
    ]),
    alignRight: [1],
  };
}

/** The claims judges' RAGChecker report: one section per claims judge that ran. */
function claimMetrics(report: EvaluationReport): ReportSection[] {
  return (["claims", "claims_offline"] as const).flatMap((kind) => {
    const block = report.summary.judges[kind];
    if (!block?.claim_metrics) return [];
    return [
      {
        title:
          `Claim-level metrics of ${kind}, as RAGChecker computes them (mean % over ${block.count} answers)` +
          (block.approximate ? `; ${block.approximate}` : ""),
        headers: ["part", "metric", "%"],
        rows: claimReportRows(block.claim_metrics).map(([group, metric, value]) => [
          group,
          metric,
          value.toFixed(1),
        ]),
        alignRight: [2],
      },
    ];
  });
}

function gate(report: EvaluationReport, lang: MessageLanguage): ReportSection | undefined {
  const counts = report.summary.gate;
  const rank = (key: string) => (GATE_ORDER.includes(key) ? GATE_ORDER.indexOf(key) : 99);
  const keys = Object.keys(counts).sort((a, b) => rank(a) - rank(b));
  if (keys.length === 0) return undefined;
  const total = keys.reduce((sum, key) => sum + (counts[key] ?? 0), 0);
  return {
    title: word(lang, "gateTitle"),
    headers: [word(lang, "verdict"), word(lang, "questions"), word(lang, "share")],
    rows: keys.map((key) => [
      key,
      String(counts[key] ?? 0),
      percentCell((counts[key] ?? 0) / total),
    ]),
    alignRight: [1, 2],
  };
}

function byType(report: EvaluationReport, lang: MessageLanguage): ReportSection | undefined {
  const entries = Object.entries(report.summary.by_question_type).sort(([a], [b]) =>
    a.localeCompare(b),
  );
  if (entries.length === 0) return undefined;
  return {
    title: word(lang, "byTypeTitle"),
    headers: [
      word(lang, "type"),
      word(lang, "questions"),
      word(lang, "scored"),
      word(lang, "averageScore"),
      word(lang, "passRate"),
    ],
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

function errors(
  report: EvaluationReport,
  limit: number,
  lang: MessageLanguage,
): ReportSection | undefined {
  const failed = report.results.filter(
    (r) => r.status === "BOT_ERROR" || r.status === "JUDGE_ERROR",
  );
  if (failed.length === 0) return undefined;
  const rows = failed
    .slice(0, limit)
    .map((r) => [String(r.position + 1), r.status, oneLine(r.error ?? "-", 120)]);
  if (failed.length > limit) rows.push(["…", word(lang, "more", { n: failed.length - limit }), ""]);
  return {
    title: word(lang, "errorsTitle"),
    headers: ["#", word(lang, "status"), word(lang, "error")],
    rows,
    alignRight: [0],
  };
}

const hasOffline = (results: readonly ReportResult[]) =>
  results.some((r) => r.judges.offline !== undefined);

/** The compact per-question table: one row each, long text cut. */
export function questionsSection(
  report: EvaluationReport,
  questionChars = 60,
  lang: MessageLanguage = "en",
): ReportSection {
  const offline = hasOffline(report.results);
  const retrieved = report.results.some((r) => r.retrieval !== null);
  const columns = ["type", "question", "status", "gate", "score", "passed"] as const;
  const headers: string[] = ["#", ...columns];
  const named = ["#", ...columns.map((column) => word(lang, column))];
  if (offline) {
    headers.push("f1", "grounded");
    named.push("f1", word(lang, "grounded"));
  }
  if (retrieved) {
    headers.push("recall", "MRR");
    named.push(word(lang, "recall"), "MRR");
  }
  const costed = report.results.some((r) => r.cost !== null);
  if (costed) {
    headers.push("cost");
    named.push("cost");
  }
  headers.push("note");
  named.push(word(lang, "note"));
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
    if (retrieved) row.push(scoreCell(r.retrieval?.recall), scoreCell(r.retrieval?.mrr));
    if (costed) row.push(r.cost ? formatCost(r.cost) : "-");
    row.push(oneLine(r.error ?? "", 60) || "-");
    return row;
  });
  const numeric = new Set(["#", "score", "f1", "grounded", "recall", "MRR", "cost"]);
  return {
    title: word(lang, "questionsTitle"),
    headers: named,
    rows,
    alignRight: headers.flatMap((header, col) => (numeric.has(header) ? [col] : [])),
  };
}

function checks(report: EvaluationReport, lang: MessageLanguage): ReportSection | undefined {
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
      word(lang, "baselineCheck", {
        regressions: baseline.regressions.length,
        improvements: baseline.improvements.length,
        matched: baseline.matched,
        averageFrom: scoreCell(baseline.average_score.baseline),
        averageTo: scoreCell(baseline.average_score.current),
        passFrom: percentCell(baseline.pass_rate.baseline),
        passTo: percentCell(baseline.pass_rate.current),
      }),
    ]);
  }
  if (rows.length === 0) return undefined;
  return {
    title: word(lang, "checksTitle"),
    headers: [word(lang, "check"), word(lang, "result"), word(lang, "detail")],
    rows,
    alignRight: [],
  };
}

function changes(
  report: EvaluationReport,
  kind: "regressions" | "improvements",
  lang: MessageLanguage,
): ReportSection | undefined {
  const list = report.baseline?.[kind] ?? [];
  if (list.length === 0) return undefined;
  return {
    title: word(lang, kind === "regressions" ? "regressionsTitle" : "improvementsTitle"),
    headers: ["#", word(lang, "question"), word(lang, "change")],
    rows: list.map((c) => [String(c.current.position + 1), oneLine(c.question, 80), c.reason]),
    alignRight: [0],
  };
}

/** The summary's sections, in reading order; empty ones are left out. */
export function summarySections(
  report: EvaluationReport,
  errorLimit = 10,
  lang: MessageLanguage = "en",
): ReportSection[] {
  return [
    overview(report, lang),
    judges(report, lang),
    cost(report),
    ...claimMetrics(report),
    retrieval(report, lang),
    gate(report, lang),
    byType(report, lang),
    errors(report, errorLimit, lang),
    checks(report, lang),
    changes(report, "regressions", lang),
    changes(report, "improvements", lang),
  ].filter((section): section is ReportSection => section !== undefined);
}
