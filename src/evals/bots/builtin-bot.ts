// The built-in RAG bot (rag/bot.ts) as a Bot: one collection, AskResult adapted to BotAnswer.

import { type CallRecord, usageByModel, usageOfCalls } from "../../llm/index.js";
import {
  type AskResult,
  type BuiltinBot,
  ModelFailureError,
  type RetrievedHit,
} from "../../rag/index.js";
import { CollectionNotFoundError, isConnectionError } from "../../store/index.js";
import { type Bot, type BotAnswer, BotError, type BotSource } from "./types.js";

/** Asks `bot` over `collection` (an id or a name). */
export function builtinBotFor(bot: BuiltinBot, collection: string): Bot {
  /**
   * A missing collection fails every question alike, so the run should stop at once. A failed
   * model is named as the cause (the loop wraps it in its node's error); the client has retried
   * it already. A lost database connection is the one failure worth asking again (retryable);
   * anything else is passed on as it is, and not retried.
   */
  const unreachableIfMissing = (error: unknown): never => {
    if (error instanceof CollectionNotFoundError) {
      throw new BotError("unreachable", `built-in bot: ${error.message}`);
    }
    const failed = ModelFailureError.findIn(error);
    if (failed) throw new BotError("model", `built-in bot: ${failed.message}`);
    if (isConnectionError(error)) {
      throw new BotError("database", "built-in bot: the database connection was lost", undefined, {
        retryable: true,
      });
    }
    throw error;
  };
  return {
    describe: () => ({ kind: "builtin", name: `builtin:${collection}` }),
    async ask({ question, signal }) {
      const result = await bot.ask({ question, collection, signal }).catch(unreachableIfMissing);
      return botAnswerFromAsk(result);
    },
    async probe(signal) {
      signal.throwIfAborted();
      await bot.resolveCollection(collection).catch(unreachableIfMissing);
    },
  };
}

/** AskResult -> BotAnswer; exported for the runner's tests and the API's replay of stored asks. */
export function botAnswerFromAsk(result: AskResult): BotAnswer {
  const answer: BotAnswer = {
    answer: result.final_answer,
    citations: result.citations,
    contexts: result.hits.map(sourceOfHit),
    trace: result.trace,
    latency_ms: Math.round(result.duration_ms * 100) / 100,
    builtin: {
      gate: result.gate,
      action: result.action,
      quality_exit: result.quality_exit,
      answer_exit: result.answer_exit,
    },
  };
  const calls = llmCallsOf(result);
  const usage = usageOf(calls);
  if (usage) {
    answer.usage = usage;
    answer.usage_by_model = usageByModel(calls);
  }
  const fallbacks = [
    ...result.answer.generations.flatMap((g) =>
      g.fallback_from ? [`generator ${g.fallback_from}: ${g.fallback_reason ?? "failed"}`] : [],
    ),
    ...result.answer.evaluations.flatMap((e) =>
      e.fallback_from ? [`judge ${e.fallback_from}: ${e.fallback_reason ?? "failed"}`] : [],
    ),
  ];
  if (fallbacks.length > 0) answer.fallbacks = fallbacks;
  return answer;
}

function sourceOfHit(hit: RetrievedHit): BotSource {
  const source: BotSource = {
    node_id: hit.node_id,
    content: hit.content,
    source: hit.source,
    score: hit.score,
    // The user's id of the document, which their questions' relevant_ids name.
    document_id: hit.external_id ?? hit.document_id,
  };
  if (hit.title !== undefined) source.title = hit.title;
  return source;
}

/**
 * The LLM calls the loops record: rewrites, generations and reviews. Retrieval's embedding calls
 * are not in AskResult; an evaluation run prices them all the same, from every call its clients
 * make under the ask (`recordCalls` in evals/runs/run-item.ts).
 */
function llmCallsOf(result: AskResult): CallRecord[] {
  return [
    ...result.quality.rewrites.flatMap((r) => (r.call ? [r.call] : [])),
    ...result.answer.generations.flatMap((g) => (g.call ? [g.call] : [])),
    ...result.answer.evaluations.flatMap((e) => e.calls),
  ];
}

/**
 * The tokens spent, as its priced lines (`usage_by_model`) count them: an answer from the response
 * cache adds none, its tokens kept apart as `cache_hit_tokens`. Undefined with no LLM call
 * (offline), so "no usage" is not mistaken for "free". The calls' latency stays out: the bot
 * contract's usage is calls and tokens, and the answer has its own latency_ms.
 */
function usageOf(calls: CallRecord[]): BotAnswer["usage"] {
  if (calls.length === 0) return undefined;
  const { latency_ms: _latency, ...usage } = usageOfCalls(calls);
  return usage;
}
