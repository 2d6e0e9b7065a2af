import { noteCall } from "./call-scope.js";
import OpenAI from "openai";
import { z } from "zod";
import { attemptSignal } from "./attempt-signal.js";
import { parseRetryAfter } from "./backoff.js";
import {
  CachedResponseSchema,
  type ResponseCache,
  responseCacheKey,
  type TokenUsage,
} from "./cache.js";
import {
  LLM_ROLES,
  type LlmConfig,
  type LlmRole,
  type ModelConfig,
  redactUrlCredentials,
  resolveModelConfig,
  type StructuredOutputMode,
} from "./config.js";
import { registerSecrets } from "./redact.js";
import {
  LlmAbortError,
  LlmConnectionError,
  LlmHttpError,
  LlmResponseError,
  LlmTimeoutError,
} from "./errors.js";
import { type AdaptiveLimiter, defaultProviderLimiters, type ProviderLimiters } from "./limiter.js";
import { withRetries } from "./retry.js";
import { countCall, emptyUsageTotals, roundedTotals, type UsageTotals } from "./usage.js";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export type ResponseFormat =
  | { type: "json_object" }
  | {
      type: "json_schema";
      json_schema: { name: string; schema: Record<string, unknown>; strict?: boolean };
    };

/** Options every call accepts. Anything left out comes from the model's config. */
export interface CallOptions {
  /** Cancels the call, including its queueing and backoff; never retried. */
  signal?: AbortSignal;
  /** Per attempt. */
  timeoutMs?: number;
  maxRetries?: number;
  /** Bypass the cache: neither read nor written. */
  noCache?: boolean;
  temperature?: number;
  seed?: number;
  maxTokens?: number;
}

export interface ChatRequest extends CallOptions {
  messages: readonly ChatMessage[];
  responseFormat?: ResponseFormat;
}

/** Recorded for every call, cached or not, successful or not. */
export interface CallRecord {
  kind: "chat" | "embedding";
  role: LlmRole | undefined;
  model: string;
  /** The base URL; never the key. */
  provider: string;
  cached: boolean;
  /** HTTP attempts made (0 for a cache hit). */
  attempts: number;
  /** Wall time including queueing and backoff. */
  latency_ms: number;
  usage: TokenUsage;
  /** The response_format actually sent (after any downgrade). */
  response_format: "json_schema" | "json_object" | "none";
  outcome: "ok" | "error";
  error?: string;
  /** The cache write failed; the answer was still returned. */
  cache_error?: string;
}

export interface ChatResult {
  content: string;
  finish_reason: string | null;
  usage: TokenUsage;
  call: CallRecord;
}

export interface EmbedRequest extends Pick<CallOptions, "signal" | "timeoutMs" | "maxRetries"> {
  input: readonly string[];
}

export interface EmbedResult {
  embeddings: number[][];
  usage: TokenUsage;
  call: CallRecord;
}

/** What judges and the RAG bot depend on; createLlmClient returns one. */
export interface LlmClient {
  readonly role: LlmRole | undefined;
  readonly model: string;
  /** The base URL. */
  readonly provider: string;
  /** The configured structured-output mode (json_schema may be downgraded per call on a 400). */
  readonly structuredOutput: StructuredOutputMode;
  chat(request: ChatRequest): Promise<ChatResult>;
  embed(request: EmbedRequest): Promise<EmbedResult>;
  /** Running totals since the client was created. */
  usage(): UsageTotals;
}

export interface LlmClientDeps {
  cache?: ResponseCache;
  /** Default: the process-wide registry, so every client of a provider shares one limit. */
  limiters?: ProviderLimiters;
  /** Called once per call with its record; keep it cheap, it runs on the hot path. */
  onCall?: (record: CallRecord) => void;
  /** For tests: the jitter source. */
  random?: () => number;
}

const ZERO_USAGE: TokenUsage = {
  prompt_tokens: 0,
  completion_tokens: 0,
  total_tokens: 0,
  cached_tokens: 0,
};

/** The record of each failed call, by the error it threw: a failure costs requests too. */
const failedCalls = new WeakMap<object, CallRecord>();

function recordFailure(error: unknown, record: CallRecord): void {
  if (typeof error === "object" && error !== null) failedCalls.set(error, record);
}

/** The CallRecord of the call that threw `error` (its HTTP attempts, latency), if a client made it. */
export function failedCallOf(error: unknown): CallRecord | undefined {
  return typeof error === "object" && error !== null ? failedCalls.get(error) : undefined;
}

const UsageWireSchema = z
  .object({
    prompt_tokens: z.number().int().min(0).optional(),
    completion_tokens: z.number().int().min(0).optional(),
    total_tokens: z.number().int().min(0).optional(),
    prompt_tokens_details: z.object({ cached_tokens: z.number().int().min(0).nullish() }).nullish(),
  })
  .nullish();

/** The fields we read from a chat completion; servers differ in everything else. */
const ChatCompletionWireSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullish() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: UsageWireSchema,
});

const EmbeddingWireSchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().min(0) })),
  usage: UsageWireSchema,
});

function usageFrom(wire: z.infer<typeof UsageWireSchema>): TokenUsage {
  const prompt = wire?.prompt_tokens ?? 0;
  const completion = wire?.completion_tokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: wire?.total_tokens ?? prompt + completion,
    // Never more than the prompt: a server that says otherwise is not believed past it.
    cached_tokens: Math.min(prompt, wire?.prompt_tokens_details?.cached_tokens ?? 0),
  };
}

type RequestParams = Pick<
  OpenAI.ChatCompletionCreateParamsNonStreaming,
  "temperature" | "seed" | "max_tokens" | "response_format"
>;

type Failure =
  | { kind: "abort" }
  | { kind: "timeout" }
  | { kind: "connection"; cause: unknown }
  | {
      kind: "http";
      status: number;
      retryAfterMs: number | undefined;
      detail: string;
      cause: unknown;
    };

const RETRYABLE_STATUS = new Set([408, 409, 429]);

function classifyFailure(error: unknown, signal: AbortSignal | undefined): Failure {
  if (signal?.aborted || error instanceof OpenAI.APIUserAbortError) return { kind: "abort" };
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { kind: "timeout" };
  if (error instanceof OpenAI.APIConnectionError) return { kind: "connection", cause: error };
  if (error instanceof OpenAI.APIError && typeof error.status === "number") {
    return {
      kind: "http",
      status: error.status,
      retryAfterMs: parseRetryAfter(error.headers),
      detail: error.message.replace(/^\d{3}\s*/, "").slice(0, 500),
      cause: error,
    };
  }
  throw error;
}

function isRetryable(failure: Failure): boolean {
  if (failure.kind === "timeout" || failure.kind === "connection") return true;
  if (failure.kind === "http") return RETRYABLE_STATUS.has(failure.status) || failure.status >= 500;
  return false;
}

function formatKind(format: ResponseFormat | undefined): CallRecord["response_format"] {
  return format?.type ?? "none";
}

/**
 * An OpenAI-compatible client for one role. Each call goes through the provider's adaptive limiter,
 * retries with backoff (honouring Retry-After), records usage and latency, and consults the cache.
 * The SDK's own retries are off (`maxRetries: 0`) so these are the only ones.
 */
class OpenAICompatibleClient implements LlmClient {
  readonly role: LlmRole | undefined;
  readonly model: string;
  readonly provider: string;
  readonly structuredOutput: StructuredOutputMode;
  readonly #config: ModelConfig;
  readonly #sdk: OpenAI;
  readonly #limiter: AdaptiveLimiter;
  readonly #cache: ResponseCache | undefined;
  readonly #onCall: ((record: CallRecord) => void) | undefined;
  readonly #random: () => number;
  /** Set once the server has rejected a response_format with 400 and the downgrade worked. */
  #formatCeiling: "json_schema" | "json_object" | "none" = "json_schema";
  readonly #totals: UsageTotals = emptyUsageTotals();

  constructor(config: ModelConfig, deps: LlmClientDeps) {
    this.#config = config;
    this.role = config.role;
    this.model = config.model;
    this.provider = redactUrlCredentials(config.base_url);
    this.structuredOutput = config.structured_output;
    this.#sdk = new OpenAI({
      baseURL: config.base_url,
      // Local servers (Ollama, llama.cpp) need no key, but the SDK insists on one.
      apiKey: config.api_key ?? "not-set",
      maxRetries: 0,
      timeout: config.timeout_ms,
      // Pin the level so OPENAI_LOG=debug cannot turn on request logging behind our back.
      logLevel: "warn",
    });
    this.#limiter = (deps.limiters ?? defaultProviderLimiters).forProvider(
      config.base_url,
      config.max_concurrency,
    );
    this.#cache = deps.cache;
    this.#onCall = deps.onCall;
    this.#random = deps.random ?? Math.random;
  }

  usage(): UsageTotals {
    return roundedTotals(this.#totals);
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    const started = performance.now();
    const cache = request.noCache ? undefined : this.#cache;
    const key = cache
      ? // The provider is part of the key: one model name on two servers is two models.
        responseCacheKey({
          model: this.model,
          messages: request.messages,
          params: {
            ...this.#requestParams(request, request.responseFormat),
            provider: this.provider,
          },
        })
      : undefined;

    if (cache && key !== undefined) {
      const hit = CachedResponseSchema.safeParse(await cache.get(key));
      if (hit.success) {
        const call = this.#record({
          kind: "chat",
          cached: true,
          attempts: 0,
          started,
          usage: hit.data.usage,
          format: request.responseFormat,
        });
        return {
          content: hit.data.content,
          finish_reason: hit.data.finish_reason,
          usage: hit.data.usage,
          call,
        };
      }
    }

    let format = this.#applyCeiling(request.responseFormat);
    let attempts = 0;
    let downgraded = false;
    for (;;) {
      const body = this.#chatBody(request, format);
      let outcome: unknown;
      try {
        outcome = await this.#withRetries(
          (options) => this.#sdk.chat.completions.create(body, options),
          request,
          (n) => {
            attempts += n;
          },
        );
      } catch (error) {
        // Servers without structured outputs (older vLLM, llama.cpp, LM Studio) answer 400 to a
        // response_format they do not know: step down json_schema -> json_object -> none.
        const next =
          LlmHttpError.isInstance(error) && error.status === 400 ? downgrade(format) : null;
        if (next !== null) {
          format = next;
          downgraded = true;
          continue;
        }
        recordFailure(
          error,
          this.#record({
            kind: "chat",
            cached: false,
            attempts,
            started,
            usage: ZERO_USAGE,
            format,
            error,
          }),
        );
        throw error;
      }
      const parsed = ChatCompletionWireSchema.safeParse(outcome);
      if (!parsed.success) {
        const error = new LlmResponseError(
          this.provider,
          "a chat completion with choices[0].message",
        );
        recordFailure(
          error,
          this.#record({
            kind: "chat",
            cached: false,
            attempts,
            started,
            usage: ZERO_USAGE,
            format,
            error,
          }),
        );
        throw error;
      }
      const choice = parsed.data.choices[0] as (typeof parsed.data.choices)[number];
      const usage = usageFrom(parsed.data.usage);
      const content = choice.message.content ?? "";
      const finishReason = choice.finish_reason ?? null;
      if (downgraded) this.#formatCeiling = formatKind(format);
      let cacheError: unknown;
      if (cache && key !== undefined) {
        // A failed write costs the next run a call, not this one its answer: record it, go on.
        try {
          await cache.set(key, {
            content,
            model: parsed.data.model ?? this.model,
            finish_reason: finishReason,
            usage,
            created_at: new Date().toISOString(),
          });
        } catch (error) {
          cacheError = error;
        }
      }
      const call = this.#record({
        kind: "chat",
        cached: false,
        attempts,
        started,
        usage,
        format,
        cacheError,
      });
      return { content, finish_reason: finishReason, usage, call };
    }
  }

  async embed(request: EmbedRequest): Promise<EmbedResult> {
    const started = performance.now();
    let attempts = 0;
    try {
      const outcome = await this.#withRetries(
        (options) =>
          this.#sdk.embeddings.create(
            { model: this.model, input: [...request.input], encoding_format: "float" },
            options,
          ),
        request,
        (n) => {
          attempts += n;
        },
      );
      const parsed = EmbeddingWireSchema.safeParse(outcome);
      if (!parsed.success || parsed.data.data.length !== request.input.length) {
        throw new LlmResponseError(this.provider, `${request.input.length} float embeddings`);
      }
      const embeddings = [...parsed.data.data]
        .sort((a, b) => a.index - b.index)
        .map((item) => item.embedding);
      const usage = usageFrom(parsed.data.usage);
      const call = this.#record({
        kind: "embedding",
        cached: false,
        attempts,
        started,
        usage,
        format: undefined,
      });
      return { embeddings, usage, call };
    } catch (error) {
      recordFailure(
        error,
        this.#record({
          kind: "embedding",
          cached: false,
          attempts,
          started,
          usage: ZERO_USAGE,
          format: undefined,
          error,
        }),
      );
      throw error;
    }
  }

  /** What a chat request sets beyond model and messages; the cache key holds the same. */
  #requestParams(options: CallOptions, format: ResponseFormat | undefined): RequestParams {
    const params: RequestParams = {
      temperature: options.temperature ?? this.#config.temperature,
      seed: options.seed ?? this.#config.seed,
    };
    const maxTokens = options.maxTokens ?? this.#config.max_tokens;
    if (maxTokens !== undefined) params.max_tokens = maxTokens;
    if (format !== undefined) params.response_format = format;
    return params;
  }

  /** The request body: model and messages, then the parameters the cache key holds. */
  #chatBody(
    request: ChatRequest,
    format: ResponseFormat | undefined,
  ): OpenAI.ChatCompletionCreateParamsNonStreaming {
    return {
      model: this.model,
      messages: request.messages as ChatMessage[],
      ...this.#requestParams(request, format),
    };
  }

  #applyCeiling(format: ResponseFormat | undefined): ResponseFormat | undefined {
    if (format === undefined) return undefined;
    if (this.#formatCeiling === "none") return undefined;
    if (this.#formatCeiling === "json_object" && format.type === "json_schema") {
      return { type: "json_object" };
    }
    return format;
  }

  /**
   * Runs `send` under the provider's limiter until it succeeds, fails for good, or the retries run
   * out (retry.ts decides, on each attempt's typed error). The slot is released before the backoff
   * so waiting calls do not block others.
   */
  async #withRetries<T>(
    send: (options: { signal?: AbortSignal; timeout: number; maxRetries: 0 }) => Promise<T>,
    request: CallOptions,
    onAttempt: (n: number) => void,
  ): Promise<T> {
    const { signal } = request;
    const timeout = Math.max(1, Math.round(request.timeoutMs ?? this.#config.timeout_ms));
    const backoff = { baseMs: this.#config.backoff_ms, maxMs: this.#config.max_backoff_ms };
    const attempt = async (retry: number): Promise<T> => {
      const slot = await this.#limiter.acquire(signal);
      onAttempt(1);
      let failure: Failure;
      // The SDK's timeout ends when the headers arrive; this one also covers reading the body, so
      // a server that answers and then stalls fails the attempt too.
      const deadline = attemptSignal(signal, timeout);
      try {
        const result = await send({ signal: deadline.signal, timeout, maxRetries: 0 });
        slot.release("ok");
        return result;
      } catch (error) {
        try {
          failure =
            deadline.timedOut && !signal?.aborted
              ? { kind: "timeout" }
              : classifyFailure(error, signal);
        } catch (unknownError) {
          slot.release("error");
          throw unknownError;
        }
        slot.release(failure.kind === "http" && failure.status === 429 ? "rate_limited" : "error");
      } finally {
        deadline.release();
      }
      throw this.#attemptError(failure, retry + 1, timeout, backoff.maxMs);
    };
    return withRetries(attempt, {
      maxRetries: request.maxRetries ?? this.#config.max_retries,
      backoff,
      signal,
      random: this.#random,
    });
  }

  /** The typed error of a failed attempt; `attempts` counts this one. */
  #attemptError(failure: Failure, attempts: number, timeout: number, maxWaitMs: number): Error {
    switch (failure.kind) {
      case "abort":
        return new LlmAbortError();
      case "timeout":
        return new LlmTimeoutError(timeout, this.provider, attempts);
      case "connection":
        return new LlmConnectionError(this.provider, attempts, { cause: failure.cause });
      case "http": {
        const tooLong = failure.retryAfterMs !== undefined && failure.retryAfterMs > maxWaitMs;
        const detail = tooLong
          ? `Retry-After of ${failure.retryAfterMs} ms exceeds max_backoff_ms; ${failure.detail}`
          : failure.detail;
        return new LlmHttpError(
          failure.status,
          this.provider,
          attempts,
          isRetryable(failure),
          // No cause: the SDK's error keeps the provider's raw body, which may echo the key, and
          // a logged error prints its cause.
          detail,
          { retryAfterMs: failure.retryAfterMs },
        );
      }
    }
  }

  #record(input: {
    kind: CallRecord["kind"];
    cached: boolean;
    attempts: number;
    started: number;
    usage: TokenUsage;
    format: ResponseFormat | undefined;
    error?: unknown;
    cacheError?: unknown;
  }): CallRecord {
    const record: CallRecord = {
      kind: input.kind,
      role: this.role,
      model: this.model,
      provider: this.provider,
      cached: input.cached,
      attempts: input.attempts,
      latency_ms: Math.round((performance.now() - input.started) * 100) / 100,
      usage: input.usage,
      response_format: formatKind(input.format),
      outcome: input.error === undefined ? "ok" : "error",
    };
    if (input.error !== undefined) {
      record.error = input.error instanceof Error ? input.error.message : String(input.error);
    }
    if (input.cacheError !== undefined) {
      record.cache_error =
        input.cacheError instanceof Error ? input.cacheError.message : String(input.cacheError);
    }
    countCall(this.#totals, record);
    noteCall(record);
    this.#onCall?.(record);
    return record;
  }
}

function downgrade(format: ResponseFormat | undefined): ResponseFormat | undefined | null {
  if (format === undefined) return null;
  return format.type === "json_schema" ? { type: "json_object" } : undefined;
}

/** A client for one resolved model config. Each call makes a new client (and a new SDK instance). */
export function createLlmClient(config: ModelConfig, deps: LlmClientDeps = {}): LlmClient {
  // Whatever this key's provider (or a proxy before it) echoes is redacted from every error text.
  registerSecrets([config.api_key]);
  return new OpenAICompatibleClient(config, deps);
}

export type LlmClients = Record<LlmRole, LlmClient>;

/**
 * One client per role. The judge's client is always its own instance, never the generator's, even
 * when both name the same model on the same server (seed 000: the evaluation LLM "SHALL 不与生成 LLM
 * 共享实例"); they share only the provider's concurrency limiter and the keep-alive agent.
 */
export function createLlmClients(config: LlmConfig, deps: LlmClientDeps = {}): LlmClients {
  const clients = {} as LlmClients;
  for (const role of LLM_ROLES)
    clients[role] = createLlmClient(resolveModelConfig(config, role), deps);
  return clients;
}
