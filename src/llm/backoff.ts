import { LlmAbortError } from "./errors.js";

export interface BackoffPolicy {
  /** First delay in ms; doubles per retry. */
  baseMs: number;
  /** Cap on any single delay, and on an acceptable Retry-After. */
  maxMs: number;
}

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so concurrent
 * callers that failed together do not retry together. `retry` counts from 0.
 */
export function backoffDelay(retry: number, policy: BackoffPolicy, random = Math.random): number {
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** retry);
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/**
 * Milliseconds the server asked us to wait, from `retry-after-ms` (OpenAI, Azure) or the standard
 * `Retry-After` (seconds or an HTTP date). Undefined when absent or unparseable.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const header = headers.get("retry-after");
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number.parseFloat(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects with LlmAbortError as soon as `signal` fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new LlmAbortError());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new LlmAbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
