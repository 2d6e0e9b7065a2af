// The LLM layer's public face: other folders import from here only.
export { type BackoffPolicy, backoffDelay, parseRetryAfter, sleep } from "./backoff.js";
export {
  type CachedResponse,
  CachedResponseSchema,
  type CacheKeyInput,
  type ResponseCache,
  responseCacheKey,
  type TokenUsage,
  TokenUsageSchema,
} from "./cache.js";
export {
  type CallOptions,
  type CallRecord,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  createLlmClient,
  createLlmClients,
  type EmbedRequest,
  type EmbedResult,
  failedCallOf,
  type LlmClient,
  type LlmClientDeps,
  type LlmClients,
  type ResponseFormat,
} from "./client.js";
export {
  applyLlmEnv,
  LLM_DEFAULTS,
  LLM_ROLES,
  type LlmConfig,
  type LlmConfigInput,
  LlmConfigSchema,
  type LlmRole,
  type ModelConfig,
  parseLlmConfig,
  redactLlmConfig,
  redactUrlCredentials,
  resolveModelConfig,
  type StructuredOutputMode,
  StructuredOutputModeSchema,
} from "./config.js";
export {
  LlmAbortError,
  LlmConfigError,
  LlmConnectionError,
  LlmError,
  type LlmErrorName,
  LlmHttpError,
  LlmResponseError,
  LlmTimeoutError,
} from "./errors.js";
export {
  describeFailures,
  FAILURE_KINDS,
  type FailureGroup,
  type FailureKind,
  failureKindOf,
  groupFailures,
} from "./failure-kinds.js";
export {
  AdaptiveLimiter,
  defaultProviderLimiters,
  type ProviderLimit,
  ProviderLimiters,
  START_CONCURRENCY,
  type Slot,
  type SlotOutcome,
} from "./limiter.js";
export {
  extractJson,
  type GenerateObjectRequest,
  type GenerateObjectResult,
  generateObject,
  jsonCandidates,
  jsonSchemaFor,
  type ParseOutcome,
  parseStructured,
  REPAIR_PROMPT,
  responseFormatFor,
} from "./structured.js";
export { errorText, REDACTED, redactSecrets, registerSecrets } from "./redact.js";
export { isRetryable, type RetryHint, type RetryOptions, withRetries } from "./retry.js";
export {
  addToCostTotal,
  costOfUsage,
  type CostTotal,
  CostTotalSchema,
  costTotalOf,
  DEFAULT_PRICES,
  emptyCostTotal,
  formatCost,
  formatUsd,
  type ModelPrice,
  ModelPriceSchema,
  type PricedUsage,
  PricedUsageSchema,
  pricedUsage,
  PRICES_AS_OF,
  priceOf,
  type PriceTable,
  PriceTableSchema,
  priceTableWith,
} from "./prices.js";
export { recordCalls, type RecordedWork } from "./call-scope.js";
export {
  type CallUsage,
  CallUsageSchema,
  countCall,
  emptyUsageTotals,
  type ModelUsage,
  ModelUsageSchema,
  roundedTotals,
  usageByModel,
  usageOfCalls,
  type UsageTotals,
} from "./usage.js";
