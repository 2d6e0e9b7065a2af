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
  /** Summed wall time of the calls, to 0.1 ms; calls run in parallel, so more than elapsed time. */
  latency_ms: z.number().min(0),
});
export type CallUsage = z.infer<typeof CallUsageSchema>;

/**
 * Sums calls' usage. Cached calls count with their original tokens, so a warm run reports what
 * the work costs rather than what this run happened to pay.
 */
export function usageOfCalls(calls: readonly CallRecord[]): CallUsage {
  let prompt_tokens = 0;
  let completion_tokens = 0;
  let latency_ms = 0;
  let attempts = 0;
  for (const call of calls) {
    attempts += call.attempts;
    prompt_tokens += call.usage.prompt_tokens;
    completion_tokens += call.usage.completion_tokens;
    latency_ms += call.latency_ms;
  }
  return {
    calls: calls.length,
    attempts,
    prompt_tokens,
    completion_tokens,
    latency_ms: Math.round(latency_ms * 10) / 10,
  };
}
