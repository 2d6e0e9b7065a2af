import type { components } from "./schema";

// The shapes the pages read. Where the generated schema (schema.d.ts) already describes a
// response, these are aliases of it; the rest describe what the server sends today and move to
// the generated types as routes gain response schemas.

export const EVALUATION_STATUSES = [
  "PENDING",
  "RUNNING",
  "PAUSED",
  "COMPLETED",
  "FAILED",
  "CANCELLED",
] as const;
export type EvaluationStatus = (typeof EVALUATION_STATUSES)[number];
export const RESULT_STATUSES = [
  "PENDING",
  "RUNNING",
  "SCORED",
  "BOT_ERROR",
  "JUDGE_ERROR",
] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];
export const JUDGE_KINDS = ["review", "rubric", "reference", "offline"] as const;
export type JudgeKind = (typeof JUDGE_KINDS)[number];

export interface Progress {
  completed: number;
  total: number;
  percent: number;
  eta_seconds: number | null;
}

export interface Evaluation {
  id: string;
  name: string;
  collection_id: string | null;
  question_set_id: string | null;
  bot_id: string;
  judge_llm_model_id: string;
  config: { judges?: JudgeKind[] } & Record<string, unknown>;
  status: EvaluationStatus;
  status_reason: string | null;
  progress: Progress;
  total_questions: number;
  completed_questions: number;
  scored_questions: number;
  bot_error_count: number;
  judge_error_count: number;
  average_score: number | null;
  /** In run listings: the share of scored results that passed. */
  pass_rate?: number | null;
  started_at: string | null;
  finished_at: string | null;
  gmt_created: string;
}

export interface JudgeSummary {
  count: number;
  mean_score: number | null;
  mean_raw: number | null;
  pass_rate: number | null;
  distribution: Record<string, number>;
  metrics: Record<string, number | null>;
}

export interface EvaluationSummary {
  total: number;
  completed: number;
  pending: number;
  running: number;
  scored: number;
  errors: { bot: number; judge: number };
  average_score: number | null;
  pass_rate: number | null;
  gate: Record<string, number>;
  judges: Partial<Record<JudgeKind, JudgeSummary>>;
  by_question_type: Record<
    string,
    { total: number; scored: number; average_score: number | null; pass_rate: number | null }
  >;
  latency_ms: { mean: number | null; p50: number | null; p95: number | null };
  usage: { prompt_tokens: number; completion_tokens: number; calls: number };
}

export interface EvaluationDetail extends Evaluation {
  summary: EvaluationSummary;
}

export interface Source {
  node_id: string;
  document_id?: string;
  title?: string;
  content: string;
  score?: number;
  source?: string;
}

export interface GateCheck {
  name: string;
  status: string;
  detail?: unknown;
  message?: string;
}

export interface StoredJudge {
  name?: string;
  model?: string;
  score?: number;
  raw_score?: number;
  passed?: boolean;
  outcome?: string;
  error?: string;
  defaulted?: boolean;
  verdict?: Record<string, unknown>;
}

export interface TraceStep {
  machine?: string;
  node: string;
  next?: string;
  summary?: string;
  duration_ms?: number;
}

export interface EvaluationResult {
  id: string;
  evaluation_id: string;
  question_id: string;
  position: number;
  question_type: string;
  question_text: string;
  ground_truth: string;
  status: ResultStatus;
  attempts: number;
  latency_ms: number | null;
  usage: unknown;
  rag_answer: string | null;
  rag_answer_sources: Source[] | null;
  rag_citations: string[] | null;
  rag_tool_calls: TraceStep[] | null;
  gate_status: string | null;
  gate: { action?: string; checks?: GateCheck[] } | null;
  judges: Record<string, StoredJudge> | null;
  score: number | null;
  passed: boolean | null;
  error: string | null;
}

/** A row of a run's results list: what a collapsed ResultComparisonCard shows. */
export type EvaluationResultListItem = components["schemas"]["EvaluationResultListItem"];

export interface QuestionSet {
  id: string;
  name: string;
  description: string | null;
  collection_id: string | null;
  question_count?: number;
  gmt_created: string;
  gmt_updated: string;
}

export interface Question {
  id: string;
  position: number;
  question_type: string;
  question_text: string;
  ground_truth: string;
  reference_context: string | null;
}

export interface Collection {
  id: string;
  name: string;
  version?: number;
  created_at?: string;
  documents?: number;
  chunks?: number;
}

export interface Generation {
  id: string;
  status: string;
  progress: number;
  questions?: {
    question_type: string;
    question_text: string;
    ground_truth: string;
    reference_context?: string | null;
  }[];
  heuristic?: boolean;
  warnings: string[];
  error: string | null;
}
