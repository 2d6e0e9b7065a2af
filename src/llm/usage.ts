import { z } from "zod";
import type { CallRecord } from "./client.js";

/** What a piece of work's LLM calls cost, summed over its CallRecords. */
export const CallUsageSchema = z.object({
  /** Every logical call, re-asks and failed calls included. */
  calls: z.number().int().min(0),
  /** HTTP requests those calls made (retries included; 0 for a cache hit). */
  attempts: z.number().int().min(0),
  prompt_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
  /** Of prompt_tokens, those the provider served from its prompt cache (0 before it was kept). */
  cached_tokens: z.number().int().min(0).default(0),
  /** The prompt and completion tokens of the calls answered from ragjudge's response cache. */
  cache_hit_tokens: z.number().int().min(0).optional(),
  /** Summed wall time of the calls, to 0.1 ms; calls run in parallel, so more than elapsed time. */
  latency_ms: z.number().min(0),
});
export type CallUsage = z.infer<typeof CallUsageSchema>;

/** Sums calls' usage: the tokens spent, a response-cache hit's kept apart as `cache_hit_tokens`. */
export function usageOfCalls(calls: readonly CallRecord[]): CallUsage {
  let prompt_tokens = 0;
  let completion_tokens = 0;
  let cached_tokens = 0;
  let cache_hit_tokens = 0;
  let latency_ms = 0;
  let attempts = 0;
  for (const call of calls) {
    attempts += call.attempts;
    latency_ms += call.latency_ms;
    // Tokens spent, as cost prices them (usageByModel): a cache hit made no request, so adds none.
    if (call.cached) {
      cache_hit_tokens += call.usage.prompt_tokens + call.usage.completion_tokens;
      continue;
    }
    prompt_tokens += call.usage.prompt_tokens;
    completion_tokens += call.usage.completion_tokens;
    cached_tokens += call.usage.cached_tokens;
  }
  return {
    calls: calls.length,
    attempts,
    prompt_tokens,
    completion_tokens,
    cached_tokens,
    ...(cache_hit_tokens > 0 ? { cache_hit_tokens } : {}),
    latency_ms: Math.round(latency_ms * 10) / 10,
  };
}

/**
 * Tokens of one model in one role: the unit a price applies to. `role` is the LLM role that made
 * the calls (generator, rewriter, embedder, judge) or, for usage a bot reports itself, `bot`.
 */
export const ModelUsageSchema = z.object({
  role: z.string().min(1).max(64),
  model: z.string().min(1).max(256),
  /** Every call, those answered from ragjudge's response cache included. */
  calls: z.number().int().min(0),
  /** Tokens the provider was asked for: a response-cache hit adds none. */
  prompt_tokens: z.number().int().min(0),
  cached_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
  /** Calls answered from ragjudge's own response cache: no request made, nothing paid. */
  cache_hits: z.number().int().min(0).optional(),
  /** The prompt and completion tokens those answers took when they were first asked for. */
  cache_hit_tokens: z.number().int().min(0).optional(),
});
export type ModelUsage = z.infer<typeof ModelUsageSchema>;

/**
 * The calls' tokens per (role, model), in the order each pair first appears. An answer from
 * ragjudge's response cache made no request: its tokens are kept apart (`cache_hit_tokens`), not
 * counted as prompt or completion tokens, so it is priced at nothing (docs/cost.md).
 */
export function usageByModel(calls: readonly CallRecord[]): ModelUsage[] {
  const byKey = new Map<string, ModelUsage>();
  for (const call of calls) {
    const role = call.role ?? "unnamed";
    const key = `${role}\u0000${call.model}`;
    let line = byKey.get(key);
    if (!line) {
      line = {
        role,
        model: call.model,
        calls: 0,
        prompt_tokens: 0,
        cached_tokens: 0,
        completion_tokens: 0,
      };
      byKey.set(key, line);
    }
    line.calls += 1;
    if (call.cached) {
      line.cache_hits = (line.cache_hits ?? 0) + 1;
      line.cache_hit_tokens =
        (line.cache_hit_tokens ?? 0) + call.usage.prompt_tokens + call.usage.completion_tokens;
      continue;
    }
    line.prompt_tokens += call.usage.prompt_tokens;
    line.cached_tokens += call.usage.cached_tokens;
    line.completion_tokens += call.usage.completion_tokens;
  }
  return [...byKey.values()];
}

/** A client's running totals since it was created (`LlmClient.usage()`). */
export interface UsageTotals {
  calls: number;
  cached_calls: number;
  failed_calls: number;
  attempts: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  total_tokens: number;
  /** The tokens of the calls answered from ragjudge's response cache, in none of the above. */
  cache_hit_tokens: number;
  latency_ms: number;
}

export function emptyUsageTotals(): UsageTotals {
  return {
    calls: 0,
    cached_calls: 0,
    failed_calls: 0,
    attempts: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    cached_tokens: 0,
    total_tokens: 0,
    cache_hit_tokens: 0,
    latency_ms: 0,
  };
}

/** Adds one call's record to running totals (every LlmClient keeps its totals this way). */
export function countCall(totals: UsageTotals, record: CallRecord): void {
  totals.calls++;
  if (record.outcome === "error") totals.failed_calls++;
  totals.attempts += record.attempts;
  totals.latency_ms += record.latency_ms;
  // Tokens spent, as cost prices them (usageByModel): a cache hit made no request, so adds none.
  if (record.cached) {
    totals.cached_calls++;
    totals.cache_hit_tokens += record.usage.total_tokens;
    return;
  }
  totals.prompt_tokens += record.usage.prompt_tokens;
  totals.completion_tokens += record.usage.completion_tokens;
  totals.cached_tokens += record.usage.cached_tokens;
  totals.total_tokens += record.usage.total_tokens;
}

/** A copy of the totals with latency to 0.01 ms. */
export function roundedTotals(totals: UsageTotals): UsageTotals {
  return { ...totals, latency_ms: Math.round(totals.latency_ms * 100) / 100 };
}
