import { describe, expect, it } from "vitest";
import { LlmAbortError, LlmHttpError } from "./errors.js";
import { isRetryable, withRetries } from "./retry.js";

const NO_WAIT = { baseMs: 0, maxMs: 1_000 };

function failing(errors: unknown[]) {
  let calls = 0;
  return {
    attempt: async () => {
      const error = errors[Math.min(calls, errors.length - 1)];
      calls++;
      if (error === "ok") return "done";
      throw error;
    },
    calls: () => calls,
  };
}

const http = (status: number, retryable: boolean, retryAfterMs?: number) =>
  new LlmHttpError(
    status,
    "p",
    1,
    retryable,
    "x",
    retryAfterMs === undefined ? {} : { retryAfterMs },
  );

describe("withRetries", () => {
  it("never retries an error that is not retryable, typed or untyped", async () => {
    for (const error of [http(400, false), new TypeError("bug"), new LlmAbortError()]) {
      const run = failing([error]);
      await expect(withRetries(run.attempt, { maxRetries: 5, backoff: NO_WAIT })).rejects.toBe(
        error,
      );
      expect(run.calls()).toBe(1);
    }
  });

  it("retries a retryable error up to maxRetries, then throws the last one", async () => {
    const last = http(503, true);
    const run = failing([http(500, true), http(502, true), last]);
    await expect(withRetries(run.attempt, { maxRetries: 2, backoff: NO_WAIT })).rejects.toBe(last);
    expect(run.calls()).toBe(3);
    const recovers = failing([http(500, true), "ok"]);
    await expect(withRetries(recovers.attempt, { maxRetries: 2, backoff: NO_WAIT })).resolves.toBe(
      "done",
    );
    expect(recovers.calls()).toBe(2);
  });

  it("waits the error's Retry-After, and stops when it asks for longer than backoff.maxMs", async () => {
    const run = failing([http(429, true, 200), "ok"]);
    const started = performance.now();
    await withRetries(run.attempt, { maxRetries: 1, backoff: { baseMs: 0, maxMs: 1_000 } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    const tooLong = failing([http(429, true, 5_000), "ok"]);
    await expect(
      withRetries(tooLong.attempt, { maxRetries: 3, backoff: { baseMs: 0, maxMs: 1_000 } }),
    ).rejects.toMatchObject({ status: 429 });
    expect(tooLong.calls()).toBe(1);
  });

  it("reads retryable from the error itself", () => {
    expect(isRetryable(http(500, true))).toBe(true);
    expect(isRetryable(http(400, false))).toBe(false);
    expect(isRetryable({ retryable: "yes" })).toBe(false);
    expect(isRetryable(undefined)).toBe(false);
  });
});
