import type { BotSource } from "../evals/bots/index.js";
import type { GeneratedQuestion } from "../evals/questions/index.js";
import { publicSnapshot, storedUsageLines } from "../evals/runs/index.js";
import { costTotalOf } from "../llm/index.js";
import { asCodedMessage } from "../text/index.js";
import {
  type ArenaRow,
  type EvaluationResultRow,
  type EvaluationRow,
  ITEM_COST_MARGIN,
  type QuestionGenerationRow,
  type QuestionRow,
  type QuestionSetRow,
} from "../store/index.js";

// Rows as the API shows them: without the workspace (the caller's), who made them, and internal
// columns.

export function publicQuestionSet({
  user_id: _u,
  workspace_id: _w,
  gmt_deleted: _d,
  ...set
}: QuestionSetRow) {
  return set;
}

export function publicQuestion({
  workspace_id: _w,
  gmt_deleted: _d,
  question_key: _k,
  ...question
}: QuestionRow) {
  return question;
}

/** The stored config is a snapshot that never holds a key or a server path (evals/runs/config.ts). */
export function publicEvaluation({
  user_id: _u,
  workspace_id: _w,
  gmt_deleted: _d,
  // The cost limit's bookkeeping (store/evaluation-budget.ts); the summary has the run's cost.
  cost_spent_usd: _spent,
  cost_reserved_usd: _reserved,
  cost_item_max_usd: _itemMax,
  ...evaluation
}: EvaluationRow) {
  const configured = (evaluation.config as { max_cost_usd?: unknown } | null)?.max_cost_usd;
  const limit = typeof configured === "number" ? configured : null;
  // The worker's own rule (store/evaluation-budget.ts), read from the numbers, not the reason's words.
  const nextItem = _itemMax === null ? 0 : _itemMax * ITEM_COST_MARGIN;
  return {
    ...evaluation,
    // The stored snapshot is an object (evals/runs/config.ts).
    config: publicSnapshot(evaluation.config) as Record<string, unknown>,
    max_cost_usd: limit,
    cost_limit_reached:
      evaluation.status === "PAUSED" && limit !== null && _spent + nextItem > limit,
  };
}

export function publicResult({ workspace_id: _w, job_id: _j, ...result }: EvaluationResultRow) {
  const lines = storedUsageLines(result.usage);
  return {
    ...result,
    // Stored by the run from the bot's answer (evals/bots/types.ts BotAnswer.sources).
    rag_answer_sources: result.rag_answer_sources as BotSource[] | null,
    cost: lines.length === 0 ? null : costTotalOf(lines),
  };
}

/** The shape is QuestionGenerationSchema (server/schemas.ts), which the OpenAPI document shows. */
export function publicGeneration({ workspace_id: _w, ...row }: QuestionGenerationRow) {
  const done = row.status === "COMPLETED";
  return {
    id: row.id,
    collection_id: row.collection_id,
    status: row.status,
    progress: row.progress,
    config: row.config,
    // Stored by the generation job (evals/questions/generate.ts).
    ...(done
      ? {
          questions: (row.questions ?? []) as GeneratedQuestion[],
          heuristic: row.heuristic ?? false,
        }
      : {}),
    warnings: (row.warnings ?? []).flatMap((w) => asCodedMessage(w) ?? []),
    usage: row.usage ?? null,
    error: row.error,
    error_message: row.error_message ?? asCodedMessage(row.error),
    gmt_created: row.gmt_created,
    gmt_updated: row.gmt_updated,
  };
}

/**
 * The arena's config is a snapshot of contestants as evaluation ids: no key, no answers. The
 * pairwise judge's per-question verdicts stay out (one per pair and question, with reasoning):
 * `GET /arenas/{id}/questions` pages them.
 */
export function publicArena({ workspace_id: _w, results, ...arena }: ArenaRow) {
  // An arena that failed before codes were kept says why in its English words.
  const status_message = arena.status_message ?? asCodedMessage(arena.status_reason);
  if (!results) return { ...arena, status_message, results };
  const { verdicts: _v, ...rest } = results as Record<string, unknown>;
  return { ...arena, status_message, results: rest as typeof results };
}
