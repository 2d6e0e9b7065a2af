import { describe, expect, it } from "vitest";
import type { AnswerRollupSum } from "../store/index.js";
import { addSums, fillBuckets, seriesRange, summarize } from "./series.js";

const sum = (over: Partial<AnswerRollupSum>): AnswerRollupSum => ({
  count: 0,
  gate_pass: 0,
  gate_partial: 0,
  gate_fail: 0,
  latency_count: 0,
  latency_sum: 0,
  latency_buckets: [0, 0, 0, 0, 0, 0, 0, 0],
  prompt_tokens: 0,
  completion_tokens: 0,
  feedback_up: 0,
  feedback_down: 0,
  feedback_scores: 0,
  feedback_score_sum: 0,
  ...over,
});

describe("summarize", () => {
  it("gives the pass rate over gated answers, mean latency, p95 as a bucket's bound, mean feedback score", () => {
    // 20 latencies: 18 under 100 ms, 1 under 250, 1 under 500: the 19th (95%) is under 250.
    const summary = summarize(
      sum({
        count: 21,
        gate_pass: 15,
        gate_partial: 1,
        gate_fail: 4,
        latency_count: 20,
        latency_sum: 2_000,
        latency_buckets: [18, 1, 1, 0, 0, 0, 0, 0],
        feedback_scores: 2,
        feedback_score_sum: 1.5,
      }),
    );
    expect(summary).toMatchObject({
      count: 21,
      gate_pass_rate: 0.75,
      latency_mean_ms: 100,
      latency_p95_ms: 250,
      feedback_score: 0.75,
    });
  });
  it("says nothing (null) where nothing was measured, never zero", () => {
    expect(summarize(sum({ count: 3 }))).toMatchObject({
      gate_pass_rate: null,
      latency_mean_ms: null,
      latency_p95_ms: null,
      feedback_score: null,
    });
  });
  it("reads a p95 past the last bound as null", () => {
    expect(
      summarize(sum({ latency_count: 1, latency_buckets: [0, 0, 0, 0, 0, 0, 0, 1] }))
        .latency_p95_ms,
    ).toBeNull();
  });
});

describe("addSums and fillBuckets", () => {
  it("adds histograms bucket by bucket", () => {
    expect(
      addSums([
        sum({ count: 1, latency_buckets: [1, 0, 0, 0, 0, 0, 0, 0] }),
        sum({ count: 2, latency_buckets: [0, 2, 0, 0, 0, 0, 0, 0] }),
      ]),
    ).toMatchObject({ count: 3, latency_buckets: [1, 2, 0, 0, 0, 0, 0, 0] });
  });
  it("puts each sum in its bucket and fills the empty ones", () => {
    const from = new Date("2026-11-20T10:00:00Z");
    const points = fillBuckets(
      [sum({ bucket: new Date("2026-11-20T10:02:00Z"), count: 4 })],
      from,
      3,
      60,
    );
    expect(points.map((p) => [p.start, p.count])).toEqual([
      ["2026-11-20T10:00:00.000Z", 0],
      ["2026-11-20T10:01:00.000Z", 0],
      ["2026-11-20T10:02:00.000Z", 4],
    ]);
  });
});

describe("seriesRange", () => {
  it("rounds to whole buckets and gives the period before of the same length", () => {
    const range = seriesRange({ bucket: "hour" }, new Date("2026-11-20T10:20:00Z"));
    expect(range.to.toISOString()).toBe("2026-11-20T11:00:00.000Z");
    expect(range.from.toISOString()).toBe("2026-11-19T11:00:00.000Z");
    expect(range.previousFrom.toISOString()).toBe("2026-11-18T11:00:00.000Z");
    expect(range.count).toBe(24);
  });
});
