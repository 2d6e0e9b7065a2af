import { describe, expect, it } from "vitest";
import { lruCache } from "./lru.js";

describe("lruCache", () => {
  it("keeps a value while it is used and makes it once", () => {
    const cache = lruCache<object>({ maxEntries: 2, idleMs: 1_000, now: () => 0 });
    let made = 0;
    const first = cache.get("alice", () => ({ n: ++made }));
    expect(cache.get("alice", () => ({ n: ++made }))).toBe(first);
    expect(made).toBe(1);
  });

  it("evicts the least recently used beyond its size", () => {
    const cache = lruCache<string>({ maxEntries: 2, idleMs: 1_000, now: () => 0 });
    cache.get("a", () => "a1");
    cache.get("b", () => "b1");
    cache.get("a", () => "a2"); // a is now the most recent
    cache.get("c", () => "c1"); // b goes
    expect(cache.size).toBe(2);
    expect(cache.get("a", () => "a3")).toBe("a1");
    expect(cache.get("b", () => "b2")).toBe("b2");
  });

  it("drops entries idle longer than idleMs", () => {
    let clock = 0;
    const cache = lruCache<string>({ maxEntries: 10, idleMs: 100, now: () => clock });
    cache.get("a", () => "a1");
    cache.get("b", () => "b1");
    clock = 50;
    cache.get("b", () => "b2");
    clock = 140; // a idle 140 ms, b 90 ms
    expect(cache.get("b", () => "b3")).toBe("b1");
    expect(cache.size).toBe(1);
    expect(cache.get("a", () => "a2")).toBe("a2");
  });
});
