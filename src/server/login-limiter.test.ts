import { describe, expect, it } from "vitest";
import { createLoginLimiter } from "./login-limiter.js";

function clock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

describe("createLoginLimiter", () => {
  it("blocks an address after maxFailures in its window, until the window ends", () => {
    const time = clock();
    const limiter = createLoginLimiter({ maxFailures: 3, windowMs: 60_000, now: time.now });
    for (let i = 0; i < 3; i++) {
      expect(limiter.blockedFor("10.0.0.1")).toBeUndefined();
      limiter.fail("10.0.0.1", `guess-${i}`);
    }
    expect(limiter.blockedFor("10.0.0.1")).toBe(60);
    expect(limiter.blockedFor("10.0.0.2")).toBeUndefined();
    time.advance(45_500);
    expect(limiter.blockedFor("10.0.0.1")).toBe(15);
    time.advance(14_500);
    expect(limiter.blockedFor("10.0.0.1")).toBeUndefined();
    // A new window starts from the next failure.
    limiter.fail("10.0.0.1", "guess-0");
    expect(limiter.blockedFor("10.0.0.1")).toBeUndefined();
  });

  it("keeps at most maxAddresses, dropping the expired first, then the oldest", () => {
    const time = clock();
    const limiter = createLoginLimiter({
      maxFailures: 1,
      windowMs: 1_000,
      maxAddresses: 3,
      now: time.now,
    });
    limiter.fail("a", "s");
    time.advance(2_000);
    limiter.fail("b", "s");
    limiter.fail("c", "s");
    limiter.fail("d", "s"); // "a" has expired: it goes, the live ones stay
    expect(limiter.size).toBe(3);
    expect(["b", "c", "d"].map((x) => limiter.blockedFor(x))).toEqual([1, 1, 1]);
    limiter.fail("e", "s"); // all live: the oldest, "b", goes
    expect(limiter.size).toBe(3);
    expect(limiter.blockedFor("b")).toBeUndefined();
    expect(limiter.blockedFor("e")).toBe(1);
    for (let i = 0; i < 10_000; i++) limiter.fail(`x${i}`, "s");
    expect(limiter.size).toBe(3);
  });

  it("counts a wrong secret once however often it is sent", () => {
    const limiter = createLoginLimiter({ maxFailures: 3, windowMs: 60_000 });
    // A stale cookie sent by every request of a page, or a revoked token in a script's loop.
    for (let i = 0; i < 50; i++) limiter.fail("10.0.0.1", "rs_stale-cookie");
    limiter.fail("10.0.0.1", "rj_revoked");
    expect(limiter.blockedFor("10.0.0.1")).toBeUndefined();
    // A third distinct secret is a third guess.
    limiter.fail("10.0.0.1", "rj_guess");
    expect(limiter.blockedFor("10.0.0.1")).toBe(60);
    // The same secret from another address is that address's own failure.
    limiter.fail("10.0.0.2", "rj_guess");
    expect(limiter.blockedFor("10.0.0.2")).toBeUndefined();
  });
});

describe("held secrets", () => {
  it("remembers the latest secrets that matched per address, and forgets idle addresses first", () => {
    const limiter = createLoginLimiter({ maxAddresses: 2, maxHeldPerAddress: 2 });
    limiter.hold("a", "s1");
    limiter.hold("a", "s2");
    limiter.hold("a", "s3"); // s1 is the oldest of a's: it goes
    expect(["s1", "s2", "s3"].map((s) => limiter.holds("a", s))).toEqual([false, true, true]);
    expect(limiter.holds("b", "s2")).toBe(false); // held by one address, not by every one
    limiter.hold("b", "t");
    limiter.hold("a", "s2"); // a used again: b is now the idlest
    limiter.hold("c", "u");
    expect([limiter.holds("a", "s2"), limiter.holds("b", "t"), limiter.holds("c", "u")]).toEqual([
      true,
      false,
      true,
    ]);
  });
});
