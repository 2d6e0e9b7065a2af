import {
  type EvaluatorInput,
  EvaluatorInputSchema,
  evaluateGate,
  type GateVerdict,
  LIMITS,
} from "../../gate/index.js";
import {
  type JudgeKind,
  type JudgeLine,
  type JudgeOutcome,
  judgeLine,
} from "../../judges/index.js";
import { backoffDelay, type LlmClient, sleep, usageOfCalls } from "../../llm/index.js";
import { NO_OUTPUTS, type ResultWrite } from "../../store/index.js";
import { type Bot, type BotAnswer, BotError } from "../bots/types.js";
import { referencesOf } from "../questions/index.js";
import type { EvaluationSnapshot } from "./config.js";

/** The question copy an item runs on (an evaluation_results row). */
export interface ItemQuestion {
  evaluation_id: string;
  question_id: string;
  question_text: string;
  ground_truth: string;
  /** Every reference when the question has several (ground_truth is the first). */
  ground_truths?: string[] | null;
}

export interface RunItemOptions {
  question: ItemQuestion;
  bot: Bot;
  snapshot: EvaluationSnapshot;
  /** The judge role's client; the LLM judges need it. */
  judgeClient?: LlmClient;
  signal: AbortSignal;
}

/** Thrown when the run was paused or cancelled under an item: its row goes back to PENDING. */
export class ItemAbortedError extends Error {
  override readonly name = "ItemAbortedError";
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ItemAbortedError("the run was paused or cancelled");
}

/** Retries `attempt` on errors `retryable` accepts, with backoff, until the policy's attempts run out. */
async function withRetries<T>(
  policy: EvaluationSnapshot["retry"],
  signal: AbortSignal,
  attempt: (n: number) => Promise<T>,
  retryable: (error: unknown) => boolean,
): Promise<T> {
  for (let n = 0; ; n++) {
    throwIfAborted(signal);
    try {
      return await attempt(n);
    } catch (error) {
      throwIfAborted(signal);
      if (n + 1 >= policy.attempts || !retryable(error)) throw error;
      await sleep(backoffDelay(n, { baseMs: policy.base_ms, maxMs: policy.max_ms }), signal).catch(
        () => {},
      );
    }
  }
}

/** The gate's input for a bot's answer: its contexts are the retrieval hits. */
export function gateInputOf(question: ItemQuestion, answer: BotAnswer): EvaluatorInput | string {
  const parsed = EvaluatorInputSchema.safeParse({
    conversation_id: question.evaluation_id,
    message_id: question.question_id,
    retrieval_record: { id: `${question.evaluation_id}:${question.question_id}` },
    retrieval_hits: answer.contexts.slice(0, LIMITS.hits).map((c) => ({
      node_id: c.node_id,
      content: c.content.slice(0, LIMITS.hitContentChars),
      ...(c.score !== undefined ? { score: c.score } : {}),
      ...(c.source !== undefined ? { source: c.source } : {}),
    })),
    generation_record: { id: `${question.evaluation_id}:${question.question_id}:answer` },
    generation_output: {
      answer: answer.answer.slice(0, LIMITS.answerChars),
      citations: answer.citations.slice(0, LIMITS.citations).map((node_id) => ({ node_id })),
    },
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `${issue?.path.join(".") ?? "(input)"}: ${issue?.message ?? "invalid"}`;
}

/** Runs the judges, retrying each one whose reply stayed unusable (judge_error) or whose call failed. */
async function runJudges(
  kinds: readonly JudgeKind[],
  options: RunItemOptions,
  answer: BotAnswer,
): Promise<{ results: Partial<Record<JudgeKind, JudgeOutcome>>; errors: string[] }> {
  const { question, snapshot, signal } = options;
  const references = referencesOf(question);
  // Judges that take one reference read ground_truth (the first); ground_truths carries them all
  // for those that score against the best match (issue 14 §1).
  const line: JudgeLine & { ground_truths?: string[] } = {
    question: question.question_text,
    answer: answer.answer,
    contexts: answer.contexts.map((c) => ({
      node_id: c.node_id,
      content: c.content,
      ...(c.source ? { source: c.source } : {}),
    })),
    ...(references[0] !== undefined ? { ground_truth: references[0] } : {}),
    ...(references.length > 1 ? { ground_truths: references } : {}),
  };
  const results: Partial<Record<JudgeKind, JudgeOutcome>> = {};
  const errors: string[] = [];
  await Promise.all(
    kinds.map(async (kind) => {
      if (kind === "reference" && !line.ground_truth) {
        errors.push("reference: the question has no ground truth");
        return;
      }
      try {
        const outcome = await withRetries(
          snapshot.retry,
          signal,
          async (n) => {
            const result = await judgeLine(line, [kind], {
              ...(options.judgeClient ? { client: options.judgeClient } : {}),
              config: snapshot.judges_config,
              signal,
              // A retry must not be answered by the cache with the reply that just failed.
              noCache: snapshot.no_cache || n > 0,
            });
            const judged = result[kind];
            if (!judged) throw new Error(`${kind}: no result`);
            if (judged.outcome === "judge_error") {
              throw Object.assign(new Error(`${kind}: ${judged.error?.message ?? "judge_error"}`), {
                judged,
              });
            }
            return judged;
          },
          () => true,
        );
        results[kind] = outcome;
      } catch (error) {
        if (error instanceof ItemAbortedError) throw error;
        const judged = (error as { judged?: JudgeOutcome }).judged;
        if (judged) results[kind] = judged;
        errors.push(error instanceof Error ? error.message : String(error));
      }
    }),
  );
  return { results, errors };
}

/** Mean of the judges' [0, 1] scores, defaulted ones excluded. */
function primaryScore(results: readonly JudgeOutcome[]): number | null {
  const counted = results.filter((r) => r.outcome === "ok" && !r.defaulted);
  if (counted.length === 0) return null;
  return counted.reduce((sum, r) => sum + r.score, 0) / counted.length;
}

/**
 * One evaluation item (seed 003 flow 3, steps 3-6): ask the bot, gate its answer on its own
 * evidence, run every configured judge with the retrieved context, and say what to store. Bot and
 * judge failures become BOT_ERROR / JUDGE_ERROR results, never a score; only a pause or cancel
 * (ItemAbortedError) escapes.
 */
export async function runItem(options: RunItemOptions): Promise<ResultWrite> {
  const { question, bot, snapshot, signal } = options;
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  let answer: BotAnswer;
  try {
    answer = await withRetries(
      // The HTTP bot retries inside (it honours Retry-After); the built-in one retries here; a
      // stored answer reads the same every time.
      snapshot.bot.kind === "builtin" ? snapshot.retry : { ...snapshot.retry, attempts: 1 },
      signal,
      () => bot.ask({ question: question.question_text, signal }),
      (error) => !(error instanceof BotError && error.kind === "invalid_response"),
    );
  } catch (error) {
    if (error instanceof ItemAbortedError || signal.aborted) {
      throw new ItemAbortedError("the run was paused or cancelled");
    }
    const kind = error instanceof BotError ? error.kind : "error";
    return {
      ...NO_OUTPUTS,
      status: "BOT_ERROR",
      latency_ms: elapsed(),
      error: `bot ${kind}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }

  // Precomputed answers given without their contexts have no evidence to gate: the gate would
  // fail every one of them for it, so it is not run (the judges still are).
  const gateInput =
    snapshot.bot.kind === "answers" && answer.contexts.length === 0
      ? "not run: the answer came without contexts"
      : gateInputOf(question, answer);
  const gate: GateVerdict | null =
    typeof gateInput === "string" ? null : evaluateGate(gateInput, snapshot.gate);
  const { results, errors } = await runJudges(snapshot.judges, options, answer);
  throwIfAborted(signal);
  const judged = Object.values(results).filter((r): r is JudgeOutcome => r !== undefined);
  const judgeError =
    judged.some((r) => r.outcome === "judge_error") ||
    errors.some((e) => !e.startsWith("reference: the question has no ground truth"));
  const reference = results.reference?.outcome === "ok" ? results.reference : undefined;
  const referenceVerdict = reference?.verdict as { score?: number; reasoning?: string } | undefined;
  const judgeUsage = usageOfCalls(judged.flatMap((result) => result.calls));
  const botUsage = answer.usage ?? { prompt_tokens: 0, completion_tokens: 0, calls: 0 };
  const score = judgeError ? null : primaryScore(judged);
  return {
    status: judgeError ? "JUDGE_ERROR" : "SCORED",
    latency_ms: elapsed(),
    usage: {
      bot: botUsage,
      judges: judgeUsage,
      bot_latency_ms: answer.latency_ms,
    },
    rag_answer: answer.answer,
    rag_answer_sources: answer.contexts,
    rag_citations: answer.citations,
    rag_tool_calls: answer.trace,
    gate_status: gate?.status ?? null,
    gate: gate ?? { error: gateInput },
    judges: results,
    llm_judge_score: referenceVerdict?.score ?? null,
    llm_judge_reasoning: referenceVerdict?.reasoning ?? null,
    score,
    passed: judgeError
      ? null
      : (gate?.status ?? "pass") !== "fail" && judged.every((r) => r.passed),
    error: errors.length > 0 ? errors.join("; ") : null,
  };
}
