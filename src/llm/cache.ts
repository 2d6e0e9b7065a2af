import { createHash } from "node:crypto";
import { z } from "zod";
import { canonicalJson } from "../text/index.js";

export const TokenUsageSchema = z.object({
  prompt_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
  total_tokens: z.number().int().min(0),
  /**
   * Prompt tokens the provider served from its prompt cache (OpenAI's
   * `usage.prompt_tokens_details.cached_tokens`), billed at the cached-input price; part of
   * `prompt_tokens`, not added to it. Responses cached before the field read as 0.
   */
  cached_tokens: z.number().int().min(0).default(0),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** What is stored per chat completion. Validated on the way out of any cache implementation. */
export const CachedResponseSchema = z.object({
  content: z.string(),
  model: z.string(),
  finish_reason: z.string().nullable(),
  usage: TokenUsageSchema,
  /** ISO 8601 time the response was first received. */
  created_at: z.string(),
});
export type CachedResponse = z.infer<typeof CachedResponseSchema>;

/**
 * Where responses are kept between runs so re-running the same evaluation makes no calls.
 * The PostgreSQL table lives in store/; tests use a Map.
 */
export interface ResponseCache {
  /** Whatever was stored; the client validates it with CachedResponseSchema before use. */
  get(key: string): Promise<unknown>;
  set(key: string, value: CachedResponse): Promise<void>;
}

export interface CacheKeyInput {
  model: string;
  messages: readonly { role: string; content: string }[];
  /** Every request parameter that can change the answer: temperature, seed, response_format... */
  params: Record<string, unknown>;
}

/** sha256 (hex) of the canonical JSON of (model, messages, parameters). */
export function responseCacheKey(input: CacheKeyInput): string {
  return createHash("sha256")
    .update(canonicalJson({ model: input.model, messages: input.messages, params: input.params }))
    .digest("hex");
}
