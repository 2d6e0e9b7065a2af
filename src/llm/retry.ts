import { type BackoffPolicy, backoffDelay, sleep } from "./backoff.js";

// The one retry decision (as the Vercel AI SDK makes it): an error says itself whether trying
// again may help (`retryable: true`) and how long its server asked to wait (`retryAfterMs`). The
// LLM client and the HTTP bot retry through here, each attempt throwing its typed error; an
// error without `retryable` (a bug, a cancellation) is never retried.

/** What a retryable error carries; LlmError and BotError have both fields. */
export interface RetryHint {
  readonly retryable: boolean;
  /** The server's Retry-After, in ms, when it sent one. */
  readonly retryAfterMs?: number | undefined;
}

/** True when the error says trying again may help. */
export function isRetryable(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as Partial<RetryHint>).retryable === true
  );
}

function retryAfterOf(error: unknown): number | undefined {
  const value = (error as Partial<RetryHint>).retryAfterMs;
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The backoff between attempts; `maxMs` also caps a Retry-After we are willing to wait. */
  backoff: BackoffPolicy;
  /** Stops the waiting between attempts (sleep rejects with LlmAbortError). */
  signal?: AbortSignal | undefined;
  random?: () => number;
}

/**
 * Runs `attempt(0)`, then again while its error is retryable and retries remain, waiting the
 * error's Retry-After or the backoff. A Retry-After longer than `backoff.maxMs` ends the retries:
 * the wait would outlast what the caller allowed. The last error is thrown as it was.
 */
export async function withRetries<T>(
  attempt: (retry: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt(retry);
    } catch (error) {
      if (!isRetryable(error) || retry >= options.maxRetries) throw error;
      const asked = retryAfterOf(error);
      if (asked !== undefined && asked > options.backoff.maxMs) throw error;
      await sleep(asked ?? backoffDelay(retry, options.backoff, options.random), options.signal);
    }
  }
}
