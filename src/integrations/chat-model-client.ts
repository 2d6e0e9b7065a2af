// A LangChain chat model (ChatOpenAI, ChatAnthropic, ChatOllama, ... any `invoke`-able model) as
// ragjudge's LlmClient, so the loops' generator, rewriter and review judge run on the user's own
// model. Only types come from @langchain/core: it is an optional peer.

import type { BaseMessageLike } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  type CallRecord,
  type ChatRequest,
  type ChatResult,
  countCall,
  emptyUsageTotals,
  type LlmClient,
  roundedTotals,
  type TokenUsage,
} from "../llm/index.js";

/** What ragjudge needs of a chat model: `invoke(messages, config)` answering with a message. */
export interface ChatModelLike {
  invoke(input: BaseMessageLike[], options?: Partial<RunnableConfig>): Promise<ChatModelReply>;
}

interface ChatModelReply {
  content: unknown;
  /** @langchain/core 1.x: the text of string or block content. */
  readonly text?: string;
  usage_metadata?: {
    input_tokens?: number;
    output_tokens?: number;
    total_tokens?: number;
    /** @langchain/core's breakdown: `cache_read` is the prompt served from the provider's cache. */
    input_token_details?: { cache_read?: number };
  };
  response_metadata?: Record<string, unknown>;
}

/** A model's name for records: ChatOpenAI's `model`, else its class name. */
export function chatModelName(model: ChatModelLike): string {
  const named = model as { model?: unknown; modelName?: unknown; getName?: () => string };
  if (typeof named.model === "string") return named.model;
  if (typeof named.modelName === "string") return named.modelName;
  return typeof named.getName === "function" ? named.getName() : "langchain-chat-model";
}

function textOf(reply: ChatModelReply): string {
  if (typeof reply.content === "string") return reply.content;
  if (typeof reply.text === "string") return reply.text;
  return Array.isArray(reply.content)
    ? reply.content
        .map((part: { type?: string; text?: string }) => (part.type === "text" ? part.text : ""))
        .join("")
    : "";
}

/**
 * `work`, or the signal's reason as soon as it aborts: not every chat model stops on its signal
 * (@langchain/core's own fakes do not), and the loop's budget must not wait for one that doesn't.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * The model as an LlmClient for one node's call. `runConfig` is the node's own config, passed to
 * `invoke` so LangGraph's callbacks see the call (`streamMode: "messages"` streams its tokens).
 * Structured output is asked for in the prompt: any chat model can follow it.
 */
export function chatModelClient(model: ChatModelLike, runConfig: RunnableConfig = {}): LlmClient {
  const name = chatModelName(model);
  const totals = emptyUsageTotals();
  return {
    role: undefined,
    model: name,
    provider: "langchain",
    structuredOutput: "prompt",
    async chat(request: ChatRequest): Promise<ChatResult> {
      const started = performance.now();
      const signal = request.signal ?? runConfig.signal;
      const record: CallRecord = {
        kind: "chat",
        role: undefined,
        model: name,
        provider: "langchain",
        cached: false,
        attempts: 1,
        latency_ms: 0,
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cached_tokens: 0 },
        response_format: "none",
        outcome: "ok",
      };
      try {
        const reply = await untilAborted(
          model.invoke(
            request.messages.map((m) => ({ role: m.role, content: m.content })),
            { ...runConfig, ...(signal ? { signal } : {}) },
          ),
          signal,
        );
        const prompt = reply.usage_metadata?.input_tokens ?? 0;
        const usage: TokenUsage = {
          prompt_tokens: prompt,
          completion_tokens: reply.usage_metadata?.output_tokens ?? 0,
          total_tokens: reply.usage_metadata?.total_tokens ?? 0,
          cached_tokens: Math.min(
            prompt,
            reply.usage_metadata?.input_token_details?.cache_read ?? 0,
          ),
        };
        record.usage = usage;
        record.latency_ms = performance.now() - started;
        countCall(totals, record);
        const finish = reply.response_metadata?.finish_reason;
        return {
          content: textOf(reply),
          finish_reason: typeof finish === "string" ? finish : null,
          usage,
          call: record,
        };
      } catch (error) {
        record.latency_ms = performance.now() - started;
        record.outcome = "error";
        countCall(totals, record);
        throw error;
      }
    },
    embed() {
      return Promise.reject(
        new Error(
          "a LangChain chat model has no embeddings: ragjudge's loops never ask it for any",
        ),
      );
    },
    usage: () => roundedTotals(totals),
  };
}
