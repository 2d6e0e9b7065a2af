import { type ClaimMetricsReport, claimsSummary, type JudgeKind } from "../../judges/index.js";
import { type RetrievalSummary, summarizeRetrieval } from "./retrieval.js";
import { addToCostTotal, type CostTotal, emptyCostTotal } from "../../llm/index.js";
import { type ItemUsageLine, storedUsageLines } from "./item-cost.js";

/** The fields of a result row the summary reads (an evaluation_results row has them all). */
export interface SummaryRow {
  status: string;
  question_type: string;
  score: number | null;
  passed: boolean | null;
  gate_status: string | null;
  judges: unknown;
  latency_ms: number | null;
  usage: unknown;
  /** The item's retrieval metrics (evals/runs/retrieval.ts), when its question names relevant items. */
  retrieval?: unknown;
}

interface StoredJudge {
  outcome?: string;
  score?: number;
  raw_score?: number;
  passed?: boolean;
  verdict?: Record<string, unknown>;
}

export interface JudgeSummaryBlock {
  /** Results counted (ok: not judge_error, not skipped) on SCORED items. */
  count: number;
  mean_score: number | null;
  mean_raw: number | null;
  pass_rate: number | null;
  /** Raw scores by bucket: reference 1-5, rubric and offline 1-10, review passed/failed. */
  distribution: Record<string, number>;
  /** Means of the judge's own numbers (offline: exact_match, f1, rouge_l, groundedness...). */
  metrics: Record<string, number | null>;
  /** The claims judges only: RAGChecker's report over the run (means × 100, one decimal). */
  claim_metrics?: ClaimMetricsReport | null;
  /** The claims judges only: the approximation's words when judged offline, else null. */
  approximate?: string | null;
}

export interface EvaluationSummary {
  total: number;
  completed: number;
  pending: number;
  running: number;
  scored: number;
  errors: { bot: number; judge: number };
  /**
   * Items the built-in bot answered with a failing model replaced (generation or review), which it
   * does only when asked (`rag.loops.answer.llm_fallback`).
   */
  fallbacks: number;
  /** Mean primary score on [0, 1] over SCORED items only; errors never count as zeros. */
  average_score: number | null;
  /** Share of SCORED items that passed the gate and every judge. */
  pass_rate: number | null;
  gate: Record<string, number>;
  judges: Partial<Record<JudgeKind, JudgeSummaryBlock>>;
  by_question_type: Record<
    string,
    { total: number; scored: number; average_score: number | null; pass_rate: number | null }
  >;
  latency_ms: { mean: number | null; p50: number | null; p95: number | null };
  /** Mean retrieval metrics over the results whose questions name relevant items; else null. */
  retrieval: RetrievalSummary | null;
  /** LLM use of the bot and judges: logical calls, and the HTTP requests (retries) they took. */
  usage: { prompt_tokens: number; completion_tokens: number; calls: number; attempts: number };
  /** What the run's LLM calls cost, in total, the bot's, each judge's and per model. */
  cost: RunCost;
}

/** A run's cost (docs/cost.md): every total says which models' tokens have no price. */
export interface RunCost {
  total: CostTotal;
  bot: CostTotal;
  judges: Record<string, CostTotal>;
  /** Tokens and cost per part (bot or judge), role and model. */
  by_model: ItemUsageLine[];
  /** Over finished items with usage: the mean and the dearest item's cost, USD. */
  per_question: { mean_usd: number | null; max_usd: number | null };
}

/** Sums the priced lines of the rows' usage. */
export function runCostOf(usages: readonly unknown[]): RunCost {
  const total = emptyCostTotal();
  const bot = emptyCostTotal();
  const judges: Record<string, CostTotal> = {};
  const byModel = new Map<string, ItemUsageLine>();
  const perItem: number[] = [];
  for (const usage of usages) {
    const lines = storedUsageLines(usage);
    if (lines.length === 0) continue;
    addToCostTotal(total, lines);
    perItem.push(lines.reduce((sum, line) => sum + (line.cost_usd ?? 0), 0));
    for (const line of lines) {
      if (line.part === "bot") addToCostTotal(bot, [line]);
      else addToCostTotal((judges[line.judge ?? "judge"] ??= emptyCostTotal()), [line]);
      const key = [line.part, line.judge ?? "", line.role, line.model].join("\u0000");
      const sum = byModel.get(key);
      if (!sum) {
        byModel.set(key, { ...line });
        continue;
      }
      sum.calls += line.calls;
      sum.prompt_tokens += line.prompt_tokens;
      sum.cached_tokens += line.cached_tokens;
      sum.completion_tokens += line.completion_tokens;
      if (line.cache_hits) {
        sum.cache_hits = (sum.cache_hits ?? 0) + line.cache_hits;
        sum.cache_hit_tokens = (sum.cache_hit_tokens ?? 0) + (line.cache_hit_tokens ?? 0);
      }
      sum.cost_usd =
        sum.cost_usd === null || line.cost_usd === null ? null : sum.cost_usd + line.cost_usd;
    }
  }
  return {
    total,
    bot,
    judges,
    by_model: [...byModel.values()],
    per_question: {
      mean_usd: mean(perItem),
      max_usd: perItem.length === 0 ? null : perItem.reduce((a, b) => Math.max(a, b)),
    },
  };
}

const OFFLINE_METRICS = ["exact_match", "f1", "rouge_l", "groundedness"] as const;
const RUBRIC_METRICS = ["accuracy", "completeness", "clarity", "weighted_score"] as const;

const mean = (values: readonly number[]) =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;

function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? null;
}

function bucketOf(kind: string, judge: StoredJudge): string {
  const raw = judge.raw_score ?? 0;
  if (kind === "review" || kind === "contains_reference") return judge.passed ? "passed" : "failed";
  // token_precision's and the claims judges' own numbers are shares: buckets of a tenth ("0.8" holds 0.8 to 0.89).
  if (kind === "token_precision" || kind === "claims" || kind === "claims_offline")
    return (Math.min(9, Math.floor(raw * 10)) / 10).toFixed(1);
  if (kind === "reference") return String(Math.round(raw));
  return String(Math.max(1, Math.min(10, Math.round(raw))));
}

function metricsOf(kind: string, judges: readonly StoredJudge[]): Record<string, number | null> {
  const verdicts = judges.map((j) => j.verdict ?? {});
  const numberAt = (v: Record<string, unknown>, key: string): number | undefined => {
    const direct = v[key];
    if (typeof direct === "number") return direct;
    const nested = (v.metrics as Record<string, unknown> | undefined)?.[key];
    return typeof nested === "number" ? nested : undefined;
  };
  const keys =
    kind === "offline"
      ? [...OFFLINE_METRICS, ...RUBRIC_METRICS]
      : kind === "rubric"
        ? RUBRIC_METRICS
        : kind === "reference"
          ? (["score"] as const)
          : kind === "token_precision"
            ? (["token_precision"] as const)
            : [];
  return Object.fromEntries(
    keys.map((key) => [
      key,
      mean(verdicts.map((v) => numberAt(v, key)).filter((x): x is number => x !== undefined)),
    ]),
  );
}

/**
 * The run's summary from its result rows: averages and pass rates over SCORED items only, score
 * distributions per judge, a breakdown by question type, error counts, latency and usage.
 */
export function summarizeResults(rows: readonly SummaryRow[]): EvaluationSummary {
  const scored = rows.filter((r) => r.status === "SCORED");
  const count = (status: string) => rows.filter((r) => r.status === status).length;
  const gate: Record<string, number> = {};
  for (const row of scored) {
    const key = row.gate_status ?? "none";
    gate[key] = (gate[key] ?? 0) + 1;
  }
  const perJudge = new Map<string, StoredJudge[]>();
  for (const row of scored) {
    for (const [kind, judge] of Object.entries((row.judges ?? {}) as Record<string, StoredJudge>)) {
      if (judge.outcome !== "ok") continue;
      let list = perJudge.get(kind);
      if (!list) perJudge.set(kind, (list = []));
      list.push(judge);
    }
  }
  const judges: EvaluationSummary["judges"] = {};
  for (const [kind, list] of perJudge) {
    const distribution: Record<string, number> = {};
    for (const judge of list) {
      const bucket = bucketOf(kind, judge);
      distribution[bucket] = (distribution[bucket] ?? 0) + 1;
    }
    const claims =
      kind === "claims" || kind === "claims_offline"
        ? claimsSummary(list.map((judge) => judge.verdict))
        : undefined;
    judges[kind as JudgeKind] = {
      count: list.length,
      mean_score: mean(list.map((j) => j.score ?? 0)),
      mean_raw: mean(list.map((j) => j.raw_score ?? 0)),
      pass_rate: mean(list.map((j) => (j.passed ? 1 : 0))),
      distribution,
      metrics: metricsOf(kind, list),
      ...(claims ? { claim_metrics: claims.report, approximate: claims.approximate } : {}),
    };
  }
  const byType: EvaluationSummary["by_question_type"] = {};
  for (const type of new Set(rows.map((r) => r.question_type))) {
    const ofType = rows.filter((r) => r.question_type === type);
    const scoredOfType = ofType.filter((r) => r.status === "SCORED");
    byType[type] = {
      total: ofType.length,
      scored: scoredOfType.length,
      average_score: mean(scoredOfType.flatMap((r) => (r.score === null ? [] : [r.score]))),
      pass_rate: mean(scoredOfType.map((r) => (r.passed ? 1 : 0))),
    };
  }
  const latencies = rows
    .filter((r) => r.latency_ms !== null && r.status !== "PENDING" && r.status !== "RUNNING")
    .map((r) => r.latency_ms as number)
    .sort((a, b) => a - b);
  const usage = { prompt_tokens: 0, completion_tokens: 0, calls: 0, attempts: 0 };
  let fallbacks = 0;
  for (const row of rows) {
    const stored = (row.usage ?? {}) as { fallbacks?: unknown };
    if (Array.isArray(stored.fallbacks) && stored.fallbacks.length > 0) fallbacks++;
    const parts = (row.usage ?? {}) as Record<string, Partial<typeof usage> | undefined>;
    for (const part of [parts.bot, parts.judges]) {
      usage.prompt_tokens += part?.prompt_tokens ?? 0;
      usage.completion_tokens += part?.completion_tokens ?? 0;
      usage.calls += part?.calls ?? 0;
      usage.attempts += part?.attempts ?? 0;
    }
  }
  return {
    total: rows.length,
    completed: rows.length - count("PENDING") - count("RUNNING"),
    pending: count("PENDING"),
    running: count("RUNNING"),
    scored: scored.length,
    errors: { bot: count("BOT_ERROR"), judge: count("JUDGE_ERROR") },
    fallbacks,
    average_score: mean(scored.flatMap((r) => (r.score === null ? [] : [r.score]))),
    pass_rate: mean(scored.map((r) => (r.passed ? 1 : 0))),
    gate,
    judges,
    by_question_type: byType,
    retrieval: summarizeRetrieval(rows.map((row) => row.retrieval)),
    latency_ms: {
      mean: mean(latencies),
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
    },
    usage,
    cost: runCostOf(rows.map((row) => row.usage)),
  };
}

export interface Progress {
  completed: number;
  total: number;
  percent: number;
  /** Seconds left at the rate so far; null before the first result or when done. */
  eta_seconds: number | null;
}

/** Completed/total, a percentage and an ETA from the run's rate since it started. */
export function progressOf(
  evaluation: {
    completed_questions: number;
    total_questions: number;
    started_at: Date | string | null;
    status: string;
  },
  now: Date = new Date(),
): Progress {
  const { completed_questions: completed, total_questions: total } = evaluation;
  const percent = total === 0 ? 100 : Math.floor((100 * completed) / total);
  let eta: number | null = null;
  if (
    evaluation.status === "RUNNING" &&
    evaluation.started_at &&
    completed > 0 &&
    completed < total
  ) {
    const elapsed = (now.getTime() - new Date(evaluation.started_at).getTime()) / 1000;
    eta = Math.round((elapsed / completed) * (total - completed));
  }
  return { completed, total, percent, eta_seconds: eta };
}
