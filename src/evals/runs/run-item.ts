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
  judgeErrorDetailOf,
  judgeFailure,
  judgeLine,
  needsReference,
} from "../../judges/index.js";
import {
  backoffDelay,
  type CallRecord,
  type CostTotal,
  errorText,
  type LlmClient,
  recordCalls,
  sleep,
  usageByModel,
  usageOfCalls,
  withRetries,
} from "../../llm/index.js";
import { NO_OUTPUTS, type ResultWrite } from "../../store/index.js";
import { type Bot, type BotAnswer, BotError, type BotErrorKind } from "../bots/index.js";
import { referencesOf } from "../questions/index.js";
import type { EvaluationSnapshot } from "./config.js";
import { itemRetrieval } from "./retrieval.js";
import { type ItemCost, itemCostOf } from "./item-cost.js";

/** The question copy an item runs on (an evaluation_results row). */
export interface ItemQuestion {
  evaluation_id: string;
  question_id: string;
  question_text: string;
  ground_truth: string;
  /** Every reference when the question has several (ground_truth is the first). */
  ground_truths?: string[] | null;
  /** Ids, or texts, of what the question's retrieval should find (issue 26 §4). */
  relevant_ids?: string[] | null;
  reference_contexts?: string[] | null;
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

function pause(policy: EvaluationSnapshot["retry"], n: number, signal: AbortSignal) {
  return sleep(backoffDelay(n, { baseMs: policy.base_ms, maxMs: policy.max_ms }), signal).catch(
    () => {},
  );
}

/**
 * Asks the bot, retried by the one typed decision (llm's withRetries, on the error's own
 * `retryable`). Only the built-in bot is retried here, under the run's policy: an HTTP bot
 * retries inside (it honours Retry-After) and a stored answer reads the same every time, so
 * neither is asked again on top. LLM errors were retried by the client already; the built-in
 * adapter marks only a lost database connection as retryable.
 */
function askBot(
  question: ItemQuestion,
  bot: Bot,
  snapshot: EvaluationSnapshot,
  signal: AbortSignal,
) {
  const policy = snapshot.retry;
  return withRetries(
    () => {
      throwIfAborted(signal);
      return bot.ask({ question: question.question_text, signal });
    },
    {
      maxRetries: snapshot.bot.kind === "builtin" ? policy.attempts - 1 : 0,
      backoff: { baseMs: policy.base_ms, maxMs: policy.max_ms },
      signal,
    },
  );
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

/** A judge that did not run on an item, and why: not an error, never a score. */
export interface SkippedJudge {
  outcome: "skipped";
  reason: string;
}

export type ItemJudge = JudgeOutcome | SkippedJudge;

/** Each judge's outcome, and every call each made (a re-asked judge's earlier asks too). */
interface JudgedItem {
  results: Partial<Record<JudgeKind, ItemJudge>>;
  calls: Partial<Record<JudgeKind, CallRecord[]>>;
}

/**
 * Runs each judge once. A judge_error from an unusable reply is asked again (a fresh sample,
 * bypassing the cache) under the run's retry policy; one from a failed LLM call is final, since
 * the client has retried what its error called retryable.
 */
async function runJudges(
  kinds: readonly JudgeKind[],
  options: RunItemOptions,
  answer: BotAnswer,
): Promise<JudgedItem> {
  const { question, snapshot, signal } = options;
  const references = referencesOf(question);
  // Judges that take one reference read ground_truth (the first); ground_truths carries them all
  // for those that score against the best match (issue 14 §1).
  const line: JudgeLine = {
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
  const results: Partial<Record<JudgeKind, ItemJudge>> = {};
  const calls: Partial<Record<JudgeKind, CallRecord[]>> = {};
  await Promise.all(
    kinds.map(async (kind) => {
      if (needsReference(kind) && !line.ground_truth) {
        results[kind] = { outcome: "skipped", reason: "the question has no ground truth" };
        return;
      }
      for (let n = 0; ; n++) {
        throwIfAborted(signal);
        let judged: JudgeOutcome | undefined;
        const recorded = await recordCalls(() =>
          judgeLine(line, [kind], {
            ...(options.judgeClient ? { client: options.judgeClient } : {}),
            config: snapshot.judges_config,
            signal,
            // A retry must not be answered by the cache with the reply that just failed.
            noCache: snapshot.no_cache || n > 0,
          }),
        );
        if (recorded.ok) {
          judged = recorded.value[kind];
        } else {
          throwIfAborted(signal);
          // Not an LLM failure (those come back as judge_error): bad input, no client. Final;
          // the calls it made before it threw were paid for all the same.
          const model = options.judgeClient?.model ?? "none";
          judged = judgeFailure(
            { name: kind, language: "en", model, calls: recorded.calls },
            judgeErrorDetailOf(recorded.error),
          );
        }
        if (!judged) throw new Error(`${kind}: judgeLine returned no result`);
        results[kind] = judged;
        (calls[kind] ??= []).push(...judged.calls);
        // Only an unusable reply is sampled again here: a failed call's error (retryable or not)
        // was the client's to retry, and it has.
        const again =
          judged.outcome === "judge_error" &&
          judged.error.cause === "reply" &&
          judged.error.retryable &&
          n + 1 < snapshot.retry.attempts;
        if (!again) return;
        await pause(snapshot.retry, n, signal);
      }
    }),
  );
  return { results, calls };
}

/** Mean of the judges' [0, 1] scores. */
function primaryScore(results: readonly JudgeOutcome[]): number | null {
  const scores = results.flatMap((r) => (r.outcome === "ok" ? [r.score] : []));
  if (scores.length === 0) return null;
  return scores.reduce((sum, score) => sum + score, 0) / scores.length;
}

/** What an item ends with: the row to write, and for a BOT_ERROR the bot error's typed kind. */
export interface ItemOutcome {
  write: ResultWrite;
  /** `error` when the bot threw something other than a BotError. */
  botError?: BotErrorKind | "error";
  /** What the item's LLM calls cost (for a bot error, what the bot spent before it failed). */
  cost?: CostTotal;
}

/**
 * One evaluation item (seed 003 flow 3, steps 3-6): ask the bot, gate its answer on its own
 * evidence, run every configured judge with the retrieved context, and say what to store. Bot and
 * judge failures become BOT_ERROR / JUDGE_ERROR results, never a score; only a pause or cancel
 * (ItemAbortedError) escapes.
 */
export async function runItem(options: RunItemOptions): Promise<ItemOutcome> {
  const { question, bot, snapshot, signal } = options;
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  // Every call ragjudge's own clients make for the bot (the built-in bot's generations, reviews,
  // rewrites and embeddings, every retry's too), kept even when the bot fails in the end.
  const asked = await recordCalls(() => askBot(question, bot, snapshot, signal));
  if (!asked.ok) {
    const { error } = asked;
    if (error instanceof ItemAbortedError || signal.aborted) {
      throw new ItemAbortedError("the run was paused or cancelled");
    }
    const kind = error instanceof BotError ? error.kind : "error";
    const spent = itemCostOf(usageByModel(asked.calls), {}, snapshot.prices);
    return {
      write: {
        ...NO_OUTPUTS,
        status: "BOT_ERROR",
        latency_ms: elapsed(),
        usage: spent.models.length > 0 ? costFields(spent) : null,
        error: `bot ${kind}: ${errorText(error)}`,
        error_kind: kind,
      },
      botError: kind,
      ...(spent.models.length > 0 ? { cost: spent.cost } : {}),
    };
  }
  const answer: BotAnswer = asked.value;

  // Precomputed answers given without their contexts have no evidence to gate: the gate would
  // fail every one of them for it, so it is not run (the judges still are).
  const gateInput =
    snapshot.bot.kind === "answers" && answer.contexts.length === 0
      ? "not run: the answer came without contexts"
      : gateInputOf(question, answer);
  const gate: GateVerdict | null =
    typeof gateInput === "string" ? null : evaluateGate(gateInput, snapshot.gate);
  const { results, calls } = await runJudges(snapshot.judges, options, answer);
  throwIfAborted(signal);
  const judged = Object.values(results).filter(
    (r): r is JudgeOutcome => r !== undefined && r.outcome !== "skipped",
  );
  const failures = Object.entries(results).flatMap(([kind, r]) =>
    r?.outcome === "judge_error" ? [`${kind}: ${r.error.message}`] : [],
  );
  const judgeError = failures.length > 0;
  const reference = results.reference?.outcome === "ok" ? results.reference : undefined;
  const referenceVerdict = reference?.verdict as { score?: number; reasoning?: string } | undefined;
  const judgeUsage = usageOfCalls(judged.flatMap((result) => result.calls));
  const botUsage = answer.usage ?? { prompt_tokens: 0, completion_tokens: 0, calls: 0 };
  // The calls ragjudge's clients made for the bot when there were any (the built-in bot: with its
  // embeddings and failed attempts, which its answer leaves out), else the usage the bot reported.
  const botLines =
    asked.calls.length > 0 ? usageByModel(asked.calls) : (answer.usage_by_model ?? []);
  const cost = itemCostOf(botLines, calls, snapshot.prices);
  const score = judgeError ? null : primaryScore(judged);
  // Answers supplied without their contexts retrieved nothing we know of: no metrics, not zeros.
  const retrieval =
    snapshot.bot.kind === "answers" && answer.contexts.length === 0
      ? null
      : itemRetrieval(question, answer.contexts, snapshot.retrieval_k);
  const write: ResultWrite = {
    status: judgeError ? "JUDGE_ERROR" : "SCORED",
    latency_ms: elapsed(),
    usage: {
      bot: botUsage,
      judges: judgeUsage,
      bot_latency_ms: answer.latency_ms,
      ...(answer.fallbacks ? { fallbacks: answer.fallbacks } : {}),
      ...costFields(cost),
    },
    rag_answer: answer.answer,
    rag_answer_sources: answer.contexts,
    rag_citations: answer.citations,
    rag_tool_calls: answer.trace,
    gate_status: gate?.status ?? null,
    gate: gate ?? { error: gateInput },
    judges: results,
    retrieval: retrieval as ResultWrite["retrieval"],
    llm_judge_score: referenceVerdict?.score ?? null,
    llm_judge_reasoning: referenceVerdict?.reasoning ?? null,
    score,
    passed: judgeError
      ? null
      : (gate?.status ?? "pass") !== "fail" && judged.every((r) => r.passed),
    error: judgeError ? failures.join("; ") : null,
  };
  return { write, cost: cost.cost };
}

/** The item's priced lines and their sum, as the row's usage keeps them. */
function costFields(cost: ItemCost) {
  return {
    models: cost.models,
    cost_usd: cost.cost.cost_usd,
    unpriced_models: cost.cost.unpriced_models,
  };
}
