import { describe, expect, it } from "vitest";
import { LlmAbortError } from "./errors.js";
import { AdaptiveLimiter, ProviderLimiters, type Slot, START_CONCURRENCY } from "./limiter.js";

describe("AdaptiveLimiter", () => {
  it("grants up to the limit at once and queues the rest in order", async () => {
    const limiter = new AdaptiveLimiter(2);
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    const order: string[] = [];
    const c = limiter.acquire().then((slot) => {
      order.push("c");
      return slot;
    });
    const d = limiter.acquire().then((slot) => {
      order.push("d");
      return slot;
    });
    expect(limiter.inFlight).toBe(2);
    expect(limiter.waiting).toBe(2);
    a.release("ok");
    (await c).release("ok");
    b.release("ok");
    (await d).release("ok");
    expect(order).toEqual(["c", "d"]);
    expect(limiter.inFlight).toBe(0);
  });

  it("starts at START_CONCURRENCY and doubles per window of successes up to max", async () => {
    const limiter = new AdaptiveLimiter(64);
    expect(limiter.limit).toBe(START_CONCURRENCY);
    // slow start: a window of 8 successes makes 16, the next window 32
    const first = await Promise.all(Array.from({ length: 8 }, () => limiter.acquire()));
    for (const slot of first) slot.release("ok");
    expect(limiter.limit).toBe(16);
    const second = await Promise.all(Array.from({ length: 16 }, () => limiter.acquire()));
    for (const slot of second) slot.release("ok");
    expect(limiter.limit).toBe(32);
    for (let i = 0; i < 100; i++) (await limiter.acquire()).release("ok");
    expect(limiter.limit).toBe(64);
    expect(new AdaptiveLimiter(3).limit).toBe(3);
  });

  it("halves on a 429 once per window, regains fast up to the level that drew it, then probes slowly", async () => {
    const limiter = new AdaptiveLimiter(64, 16);
    const slots = await Promise.all(Array.from({ length: 16 }, () => limiter.acquire()));
    // a burst of 429s from calls started in the same window halves only once
    for (const slot of slots.slice(0, 10)) slot.release("rate_limited");
    expect(limiter.limit).toBe(8);
    expect(limiter.rateLimited).toBe(10);
    for (const slot of slots.slice(10)) slot.release("ok");
    // 6 successes regain 6 of the 7 below the threshold (16 - 1)
    expect(limiter.limit).toBe(14);
    (await limiter.acquire()).release("ok");
    expect(limiter.limit).toBe(15);
    // above the threshold: +1 per four windows, so 15 -> 16 takes about 60 successes
    let successes = 0;
    while (limiter.limit < 16) {
      (await limiter.acquire()).release("ok");
      successes++;
    }
    expect(successes).toBeGreaterThan(50);
    expect(successes).toBeLessThan(70);
    // a 429 from the new window halves again
    (await limiter.acquire()).release("rate_limited");
    expect(limiter.limit).toBe(8);
  });

  it("never drops below 1 and ignores plain errors", async () => {
    const limiter = new AdaptiveLimiter(2);
    for (let i = 0; i < 5; i++) (await limiter.acquire()).release("rate_limited");
    expect(limiter.limit).toBe(1);
    (await limiter.acquire()).release("error");
    expect(limiter.limit).toBe(1);
  });

  it("rejects a waiter whose signal aborts, without losing its place for others", async () => {
    const limiter = new AdaptiveLimiter(1);
    const held = await limiter.acquire();
    const controller = new AbortController();
    const aborted = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    controller.abort();
    await expect(aborted).rejects.toSatisfy(LlmAbortError.isInstance);
    held.release("ok");
    const slot: Slot = await next;
    expect(limiter.inFlight).toBe(1);
    slot.release("ok");
    slot.release("ok"); // double release is ignored
    expect(limiter.inFlight).toBe(0);
  });

  it("rejects at once when the signal is already aborted", async () => {
    await expect(new AdaptiveLimiter(1).acquire(AbortSignal.abort())).rejects.toSatisfy(
      LlmAbortError.isInstance,
    );
  });
});

describe("ProviderLimiters", () => {
  it("shares one limiter per base URL and keeps the smallest max", () => {
    const limiters = new ProviderLimiters();
    const a = limiters.forProvider("http://a/v1", 8);
    expect(limiters.forProvider("http://a/v1", 4)).toBe(a);
    expect(a.max).toBe(4);
    expect(limiters.forProvider("http://a/v1", 16).max).toBe(4);
    expect(limiters.forProvider("http://b/v1", 16)).not.toBe(a);
  });

  it("reports where each provider's limit stands and how many 429s it saw", async () => {
    const limiters = new ProviderLimiters();
    const a = limiters.forProvider("http://a/v1", 64);
    (await a.acquire()).release("rate_limited");
    expect(limiters.snapshot()).toEqual([
      { provider: "http://a/v1", limit: 4, max: 64, rate_limited: 1 },
    ]);
  });
});
