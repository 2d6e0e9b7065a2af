import { afterEach, expect, it, vi } from "vitest";
import { attemptSignal } from "./attempt-signal.js";

afterEach(() => {
  vi.useRealTimers();
});

it("aborts with the caller's reason, not as a timeout", () => {
  const caller = new AbortController();
  const attempt = attemptSignal(caller.signal, 60_000);
  expect(attempt.signal.aborted).toBe(false);
  caller.abort(new Error("paused"));
  expect(attempt.signal.aborted).toBe(true);
  expect((attempt.signal.reason as Error).message).toBe("paused");
  expect(attempt.timedOut).toBe(false);
  attempt.release();
});

it("starts aborted when the caller already is", () => {
  const caller = new AbortController();
  caller.abort(new Error("gone"));
  const attempt = attemptSignal(caller.signal, 60_000);
  expect(attempt.signal.aborted).toBe(true);
  attempt.release();
});

it("times out on its own, with or without a caller", () => {
  vi.useFakeTimers();
  for (const caller of [undefined, new AbortController().signal]) {
    const attempt = attemptSignal(caller, 5);
    vi.advanceTimersByTime(4);
    expect(attempt.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(attempt.timedOut).toBe(true);
    expect((attempt.signal.reason as DOMException).name).toBe("TimeoutError");
    attempt.release();
  }
});

it("once released, neither the caller nor the timer reaches it", () => {
  vi.useFakeTimers();
  const caller = new AbortController();
  const first = attemptSignal(caller.signal, 5);
  first.release();
  const second = attemptSignal(undefined, 5);
  second.release();
  vi.advanceTimersByTime(10);
  caller.abort();
  expect(first.signal.aborted).toBe(false);
  expect(second.signal.aborted).toBe(false);
});
