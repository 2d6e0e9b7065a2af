import { describe, expect, it } from "vitest";
import { backoffDelay, parseRetryAfter, sleep } from "./backoff.js";
import { LlmAbortError } from "./errors.js";

describe("backoffDelay", () => {
  const policy = { baseMs: 100, maxMs: 1_000 };
  it("doubles per retry with half the delay jittered, capped", () => {
    expect(backoffDelay(0, policy, () => 0)).toBe(50);
    expect(backoffDelay(0, policy, () => 1)).toBe(100);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(300);
    expect(backoffDelay(10, policy, () => 1)).toBe(1_000);
  });
});

describe("parseRetryAfter", () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);
  it("reads seconds, HTTP dates and retry-after-ms", () => {
    expect(parseRetryAfter(headers({ "retry-after": "2" }))).toBe(2_000);
    expect(parseRetryAfter(headers({ "retry-after": "0.5" }))).toBe(500);
    expect(parseRetryAfter(headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter(headers({ "retry-after": "Wed, 01 Jan 2025 00:00:03 GMT" }), now)).toBe(
      3_000,
    );
    expect(parseRetryAfter(headers({ "retry-after": "Tue, 31 Dec 2024 00:00:00 GMT" }), now)).toBe(
      0,
    );
  });
  it("is undefined when absent or unreadable", () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ "retry-after": "soon" }))).toBeUndefined();
  });
});

describe("sleep", () => {
  it("rejects with LlmAbortError when aborted", async () => {
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort();
    await expect(pending).rejects.toSatisfy(LlmAbortError.isInstance);
    await expect(sleep(1, AbortSignal.abort())).rejects.toSatisfy(LlmAbortError.isInstance);
    await expect(sleep(0)).resolves.toBeUndefined();
  });
});
