import { describe, expect, it } from "vitest";
import { callsPerAnswer } from "./definition.js";
import { matchesFilter, sampledIn } from "./filter.js";

const answer = {
  id: "a1",
  service: "shop",
  collection: "kb",
  model: "gpt",
  metadata: { tenant: "acme", tier: 2, beta: true },
  gate_status: "fail",
};

describe("matchesFilter", () => {
  it("matches when every field given matches; metadata compares as text", () => {
    expect(matchesFilter({}, answer, undefined)).toBe(true);
    expect(
      matchesFilter(
        {
          service: "shop",
          collection: "kb",
          model: "gpt",
          gate: ["fail", "partial"],
          metadata: { tier: "2", beta: "true" },
        },
        answer,
        undefined,
      ),
    ).toBe(true);
    expect(matchesFilter({ service: "other" }, answer, undefined)).toBe(false);
    expect(matchesFilter({ metadata: { tenant: "globex" } }, answer, undefined)).toBe(false);
    expect(matchesFilter({ metadata: { region: "eu" } }, answer, undefined)).toBe(false);
    expect(matchesFilter({ gate: ["pass"] }, answer, undefined)).toBe(false);
  });
  it("matches a feedback filter only on the feedback it waits for", () => {
    expect(matchesFilter({ feedback: "any" }, answer, undefined)).toBe(false);
    expect(matchesFilter({ feedback: "any" }, answer, { thumb: null })).toBe(true);
    expect(matchesFilter({ feedback: "down" }, answer, { thumb: "up" })).toBe(false);
    expect(matchesFilter({ feedback: "down" }, answer, { thumb: "down" })).toBe(true);
  });
});

describe("sampledIn", () => {
  it("gives the same answer every time, keeps about the rate, and all or none at the ends", () => {
    const ids = Array.from({ length: 2_000 }, (_, i) => `answer-${i}`);
    const kept = ids.filter((id) => sampledIn("m1", id, 0.25)).length;
    expect(kept).toBeGreaterThan(400);
    expect(kept).toBeLessThan(600);
    expect(ids.filter((id) => sampledIn("m1", id, 0.25)).length).toBe(kept);
    // Another monitor samples other answers.
    const other = ids.filter((id) => sampledIn("m2", id, 0.25));
    expect(other).not.toEqual(ids.filter((id) => sampledIn("m1", id, 0.25)));
    expect(ids.every((id) => sampledIn("m1", id, 1))).toBe(true);
    expect(ids.some((id) => sampledIn("m1", id, 0))).toBe(false);
  });
});

describe("callsPerAnswer", () => {
  it("counts one call per LLM judge, times repeat; offline judges cost none", () => {
    expect(callsPerAnswer(["offline", "token_precision"])).toBe(0);
    expect(callsPerAnswer(["review", "offline", "rubric"])).toBe(2);
    expect(callsPerAnswer(["review"], 3)).toBe(3);
  });
});
