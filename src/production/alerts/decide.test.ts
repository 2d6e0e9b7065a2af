import { describe, expect, it } from "vitest";
import { breaches, decideAlert } from "./decide.js";

const rule = { comparison: "below" as const, threshold: 0.9, min_count: 50, cooldown_minutes: 30 };
const now = new Date("2026-11-27T09:00:00Z");
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);

describe("breaches", () => {
  it("needs the minimum count and a value past the threshold, in the rule's direction", () => {
    expect(breaches(rule, { value: 0.5, count: 50 })).toBe(true);
    expect(breaches(rule, { value: 0.5, count: 49 })).toBe(false);
    expect(breaches(rule, { value: 0.9, count: 50 })).toBe(false);
    expect(breaches(rule, { value: null, count: 0 })).toBe(false);
    expect(breaches({ ...rule, comparison: "above" }, { value: 0.95, count: 50 })).toBe(true);
    expect(breaches({ ...rule, comparison: "above" }, { value: 0.5, count: 50 })).toBe(false);
  });
});

describe("decideAlert", () => {
  const bad = { value: 0.5, count: 80 };
  const good = { value: 0.95, count: 80 };

  it("fires a breach when nothing is open and no earlier episode is in its cool-down", () => {
    expect(decideAlert({ rule, measure: bad, firing: false, lastFiredAt: undefined, now })).toEqual(
      {
        kind: "fire",
      },
    );
    expect(
      decideAlert({ rule, measure: bad, firing: false, lastFiredAt: minutesAgo(30), now }),
    ).toEqual({ kind: "fire" });
  });

  it("holds a breach inside the cool-down since the last firing", () => {
    expect(
      decideAlert({ rule, measure: bad, firing: false, lastFiredAt: minutesAgo(29), now }),
    ).toEqual({ kind: "hold", reason: "cooldown" });
  });

  it("holds while firing, and resolves once the breach ends, too few answers included", () => {
    expect(decideAlert({ rule, measure: bad, firing: true, lastFiredAt: now, now })).toEqual({
      kind: "hold",
      reason: "firing",
    });
    expect(decideAlert({ rule, measure: good, firing: true, lastFiredAt: now, now })).toEqual({
      kind: "resolve",
    });
    expect(
      decideAlert({ rule, measure: { value: 0.1, count: 3 }, firing: true, lastFiredAt: now, now }),
    ).toEqual({ kind: "resolve" });
  });

  it("says why it holds when nothing breaches", () => {
    expect(
      decideAlert({
        rule,
        measure: { value: 0, count: 3 },
        firing: false,
        lastFiredAt: undefined,
        now,
      }),
    ).toEqual({ kind: "hold", reason: "too_few" });
    expect(
      decideAlert({ rule, measure: good, firing: false, lastFiredAt: undefined, now }),
    ).toEqual({
      kind: "hold",
      reason: "ok",
    });
  });
});
