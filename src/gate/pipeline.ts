import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { evaluateGate } from "./evaluate.js";
import type { EvaluatorInput, GateConfig, GateVerdict } from "./schema.js";

/** What the pipeline writes: seed 004 §2.1 EvaluationRecordModel, plus the input for replay. */
export interface EvaluationRecordDraft {
  workspace_id: string;
  conversation_id: string;
  message_id: string;
  retrieval_record_id: string;
  generation_record_id: string;
  status: GateVerdict["status"];
  action: GateVerdict["action"];
  rule_version: string;
  config: GateConfig;
  checks: GateVerdict["checks"];
  scores: GateVerdict["scores"];
  meta: EvaluationMeta;
  input: Omit<EvaluatorInput, "config">;
  check_count: number;
}

export interface EvaluationMeta {
  trace_id: string;
  /** Time spent in the checks, in milliseconds. */
  evaluate_ms: number;
  evaluated_at: string;
  hit_count: number;
  answer_chars: number;
  /** The per-answer override from the input, if any (already folded into `config`). */
  config_override?: EvaluatorInput["config"];
}

/** The repository the pipeline writes through; `store/` provides one. A batch is written whole. */
export interface EvaluatorRepo {
  insertRecords(rows: EvaluationRecordDraft[]): Promise<Array<{ id: string; created_at: Date }>>;
  /**
   * Why a failed write was the rows' fault (a value the database refuses), so writing them one at
   * a time keeps the others; undefined otherwise (the database is down): not retried.
   */
  rowErrorOf?(error: unknown): string | undefined;
}

export interface PipelineContext {
  workspace_id: string;
  /** Ties the records of one request or run together; a fresh id per record when absent. */
  trace_id?: string;
  /** Base configuration; each input's `config` overrides it. Defaults apply when absent. */
  config?: GateConfig;
}

/** Seed 004 §6.3 EvaluationResult: the verdict with the ids of the stored record. */
export type EvaluationResult = GateVerdict &
  Omit<EvaluationRecordDraft, "workspace_id" | "input" | "check_count" | "config"> & {
    id: string;
    created_at: Date;
  };

export function draftRecord(input: EvaluatorInput, ctx: PipelineContext): EvaluationRecordDraft {
  const started = performance.now();
  const verdict = evaluateGate(input, ctx.config);
  const evaluate_ms = performance.now() - started;
  const { config: override, ...stored } = input;
  return {
    workspace_id: ctx.workspace_id,
    conversation_id: input.conversation_id,
    message_id: input.message_id,
    retrieval_record_id: input.retrieval_record.id,
    generation_record_id: input.generation_record.id,
    status: verdict.status,
    action: verdict.action,
    rule_version: verdict.rule_version,
    config: verdict.config,
    checks: verdict.checks,
    scores: verdict.scores,
    meta: {
      trace_id: ctx.trace_id ?? randomUUID(),
      evaluate_ms: Math.round(evaluate_ms * 1000) / 1000,
      evaluated_at: new Date().toISOString(),
      hit_count: input.retrieval_hits.length,
      answer_chars: input.generation_output.answer.length,
      ...(override ? { config_override: override } : {}),
    },
    input: stored,
    check_count: verdict.checks.length,
  };
}

/** The caller-facing part of a draft: everything but the owner, the stored input and bookkeeping. */
export function verdictOfDraft(
  draft: EvaluationRecordDraft,
): Omit<EvaluationResult, "id" | "created_at"> {
  const { workspace_id: _user, input: _input, check_count: _count, ...verdict } = draft;
  return verdict;
}

/**
 * Seed 004 §6.3 run_evaluator_pipeline, for a batch: every input is evaluated first (pure), then
 * all records are written in one statement, so no transaction is open while checks run.
 */
export async function runEvaluatorPipelineBatch(options: {
  evaluator_repo: EvaluatorRepo;
  inputs: EvaluatorInput[];
  ctx: PipelineContext;
}): Promise<EvaluationResult[]> {
  const drafts = options.inputs.map((input) => draftRecord(input, options.ctx));
  const written = await options.evaluator_repo.insertRecords(drafts);
  return drafts.map((draft, i) => {
    const row = written[i];
    if (!row) throw new Error("the repository returned fewer rows than it was given");
    return { ...verdictOfDraft(draft), id: row.id, created_at: row.created_at };
  });
}

export async function runEvaluatorPipeline(options: {
  evaluator_repo: EvaluatorRepo;
  input: EvaluatorInput;
  ctx: PipelineContext;
}): Promise<EvaluationResult> {
  const [result] = await runEvaluatorPipelineBatch({ ...options, inputs: [options.input] });
  if (!result) throw new Error("no record was written");
  return result;
}
