import type { EvaluationResultRow, EvaluationRow } from "../../store/index.js";
import { type CostTotal, costTotalOf } from "../../llm/index.js";
import {
  type EvaluationSummary,
  type ItemRetrieval,
  storedUsageLines,
  summarizeResults,
} from "../runs/index.js";
import type { BaselineComparison } from "./baseline.js";
import type { ThresholdCheck } from "./thresholds.js";

/** The offline judge's measures, named as its verdict names them. */
export const OFFLINE_MEASURES = ["exact_match", "f1", "rouge_l", "groundedness"] as const;

/**
 * One judge's result on one question, as a report shows it (the stored verdict, trimmed). Only an
 * "ok" outcome has numbers; a judge_error has `error` instead, a skipped judge its `reason`.
 */
export interface ReportJudge {
  outcome: string;
  score: number | null;
  raw_score: number | null;
  passed: boolean | null;
  /** Offline: exact_match, f1, rouge_l, groundedness; rubric-like judges: their metrics. */
  metrics: Record<string, number | null>;
  reason: string | null;
  error: string | null;
}

export interface ReportSource {
  node_id: string;
  title: string | null;
  document_id: string | null;
  source: string | null;
  score: number | null;
  content: string;
}

/** A person's label of a result (evals/calibration), exported with it. */
export interface ReportLabel {
  scale: string;
  score: number | null;
  passed: boolean | null;
  note: string | null;
  labelled_by: string;
  labelled_at: string | null;
}

export interface ReportResult {
  position: number;
  question_id: string;
  question: string;
  question_type: string;
  ground_truth: string;
  status: string;
  answer: string | null;
  citations: string[];
  sources: ReportSource[];
  gate: string | null;
  judges: Record<string, ReportJudge>;
  /** Retrieval metrics against the question's relevant items; null when it names none. */
  retrieval: ItemRetrieval | null;
  score: number | null;
  passed: boolean | null;
  error: string | null;
  latency_ms: number | null;
  attempts: number;
  /** What the question's LLM calls (bot and judges) cost; null when it made none or ran before costs were kept. */
  cost: CostTotal | null;
  /** People's labels of this result, one per scale; empty when nobody labelled it. */
  human_labels: ReportLabel[];
}

export interface ReportEvaluation {
  id: string;
  name: string;
  status: string;
  status_reason: string | null;
  collection_id: string | null;
  question_set_id: string | null;
  bot_id: string;
  judge_llm_model_id: string;
  judges: string[];
  rule_version: string | null;
  total_questions: number;
  completed_questions: number;
  created_at: string | null;
  started_at: string | null;
  finished_at: string | null;
}

/** Everything every report format renders: the run, its summary, and each question's result. */
export interface EvaluationReport {
  evaluation: ReportEvaluation;
  summary: EvaluationSummary;
  results: ReportResult[];
  /** The CI checks asked for (--min-score, --min-pass-rate, --max-errors), when any. */
  thresholds?: ThresholdCheck[];
  /** The comparison with a baseline run (--baseline), when asked for. */
  baseline?: BaselineComparison;
}

/** The report's input: rows as the store returns them (only the fields read are required). */
export type ReportEvaluationRow = Pick<
  EvaluationRow,
  | "id"
  | "name"
  | "status"
  | "status_reason"
  | "collection_id"
  | "question_set_id"
  | "bot_id"
  | "judge_llm_model_id"
  | "config"
  | "total_questions"
  | "completed_questions"
  | "gmt_created"
  | "started_at"
  | "finished_at"
>;
export type ReportResultRow = Pick<
  EvaluationResultRow,
  | "position"
  | "question_id"
  | "question_type"
  | "question_text"
  | "ground_truth"
  | "status"
  | "rag_answer"
  | "rag_citations"
  | "rag_answer_sources"
  | "gate_status"
  | "judges"
  | "score"
  | "passed"
  | "error"
  | "latency_ms"
  | "attempts"
  | "usage"
> &
  Partial<Pick<EvaluationResultRow, "retrieval">> & {
    /** Attached by withLabels; the store's result rows have none. */
    human_labels?: readonly ReportLabelRow[];
  };

/** A label row as the store returns it (only the fields a report shows). */
export interface ReportLabelRow {
  question_id: string;
  scale: string;
  score: number | null;
  passed: boolean | null;
  note: string | null;
  labelled_by: string;
  labelled_at: Date | string | null;
}

/** The rows with their labels attached, matched by question_id (unique within a run). */
export function withLabels<R extends ReportResultRow>(
  rows: readonly R[],
  labels: readonly ReportLabelRow[],
): R[] {
  if (labels.length === 0) return [...rows];
  const byQuestion = new Map<string, ReportLabelRow[]>();
  for (const label of labels) {
    const list = byQuestion.get(label.question_id) ?? [];
    list.push(label);
    byQuestion.set(label.question_id, list);
  }
  return rows.map((row) => {
    const own = byQuestion.get(row.question_id);
    return own ? { ...row, human_labels: own } : row;
  });
}

const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();

const numberOrNull = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;

const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

function judgeOf(stored: unknown): ReportJudge {
  const judge = asRecord(stored);
  const outcome = stringOrNull(judge.outcome) ?? "unknown";
  if (outcome !== "ok") {
    // Rows written before judge errors lost their numbers still hold seed 002's default low score.
    return {
      outcome,
      score: null,
      raw_score: null,
      passed: null,
      metrics: {},
      reason: stringOrNull(judge.reason),
      error: stringOrNull(asRecord(judge.error).message),
    };
  }
  const verdict = asRecord(judge.verdict);
  const metrics: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(asRecord(verdict.metrics))) {
    metrics[key] = numberOrNull(value);
  }
  for (const key of [...OFFLINE_MEASURES, "score"]) {
    if (key in verdict) metrics[key] = numberOrNull(verdict[key]);
  }
  return {
    outcome,
    score: numberOrNull(judge.score),
    raw_score: numberOrNull(judge.raw_score),
    passed: typeof judge.passed === "boolean" ? judge.passed : null,
    metrics,
    reason: stringOrNull(verdict.reason) ?? stringOrNull(verdict.reasoning),
    error: null,
  };
}

function sourceOf(stored: unknown): ReportSource {
  const source = asRecord(stored);
  return {
    node_id: String(source.node_id ?? ""),
    title: stringOrNull(source.title),
    document_id: stringOrNull(source.document_id),
    source: stringOrNull(source.source),
    score: numberOrNull(source.score),
    content: stringOrNull(source.content) ?? "",
  };
}

function costOfRow(usage: unknown): CostTotal | null {
  const lines = storedUsageLines(usage);
  return lines.length === 0 ? null : costTotalOf(lines);
}

export function reportResultOf(row: ReportResultRow): ReportResult {
  return {
    position: row.position,
    question_id: row.question_id,
    question: row.question_text,
    question_type: row.question_type,
    ground_truth: row.ground_truth,
    status: row.status,
    answer: row.rag_answer,
    citations: Array.isArray(row.rag_citations) ? row.rag_citations.map(String) : [],
    sources: Array.isArray(row.rag_answer_sources) ? row.rag_answer_sources.map(sourceOf) : [],
    gate: row.gate_status,
    judges: Object.fromEntries(
      Object.entries(asRecord(row.judges)).map(([kind, stored]) => [kind, judgeOf(stored)]),
    ),
    retrieval: (row.retrieval ?? null) as ItemRetrieval | null,
    score: row.score,
    passed: row.passed,
    error: row.error,
    latency_ms: row.latency_ms,
    attempts: row.attempts,
    cost: costOfRow(row.usage),
    human_labels: (row.human_labels ?? []).map((label) => ({
      scale: label.scale,
      score: label.score,
      passed: label.passed,
      note: label.note,
      labelled_by: label.labelled_by,
      labelled_at: iso(label.labelled_at),
    })),
  };
}

/**
 * The report of one run from its row and result rows. The summary is computed from the rows
 * unless given (a caller that has it already saves the pass).
 */
export function buildReport(
  evaluation: ReportEvaluationRow,
  rows: readonly ReportResultRow[],
  summary: EvaluationSummary = summarizeResults(rows),
): EvaluationReport {
  const config = asRecord(evaluation.config);
  return {
    evaluation: {
      id: evaluation.id,
      name: evaluation.name,
      status: evaluation.status,
      status_reason: evaluation.status_reason,
      collection_id: evaluation.collection_id,
      question_set_id: evaluation.question_set_id,
      bot_id: evaluation.bot_id,
      judge_llm_model_id: evaluation.judge_llm_model_id,
      judges: Array.isArray(config.judges) ? config.judges.map(String) : [],
      rule_version: stringOrNull(config.rule_version),
      total_questions: evaluation.total_questions,
      completed_questions: evaluation.completed_questions,
      created_at: iso(evaluation.gmt_created),
      started_at: iso(evaluation.started_at),
      finished_at: iso(evaluation.finished_at),
    },
    summary,
    results: [...rows].sort((a, b) => a.position - b.position).map(reportResultOf),
  };
}
