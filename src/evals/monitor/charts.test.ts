import { describe, expect, it } from "vitest";
import type { SummaryRow } from "../runs/index.js";
import { chartsOf, histogramOf } from "./charts.js";

const row = (over: Partial<SummaryRow>): SummaryRow => ({
  status: "SCORED",
  question_type: "FACTUAL",
  score: 0.5,
  passed: true,
  gate_status: "pass",
  judges: null,
  latency_ms: 10,
  usage: null,
  ...over,
});

describe("histogramOf", () => {
  it("bins scores by their lower edge, puts 1 in the last bin, and skips unscored results", () => {
    const histogram = histogramOf([
      row({ score: 0 }),
      row({ score: 0.1 }),
      row({ score: 0.19 }),
      row({ score: 1 }),
      row({ status: "BOT_ERROR", score: null }),
      row({ status: "PENDING", score: null }),
    ]);
    expect(histogram.bins.map((b) => b.count)).toEqual([1, 2, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(histogram).toMatchObject({ count: 4, not_scored: 2 });
    expect(histogram.bins[9]).toMatchObject({ from: 0.9, to: 1 });
  });
});

describe("chartsOf", () => {
  it("puts the judges' dimensions on one [0, 1] radar, only those that ran", () => {
    const judges = {
      offline: {
        outcome: "ok",
        score: 0.5,
        raw_score: 5,
        passed: true,
        verdict: { metrics: { f1: 0.25, accuracy: 10 } },
      },
      reference: { outcome: "ok", score: 0.75, raw_score: 4, passed: true, verdict: { score: 4 } },
    };
    const { radar } = chartsOf([row({ judges })]);
    expect(radar.map((d) => [d.judge, d.dimension, d.mean, d.value])).toEqual([
      ["offline", "accuracy", 10, 1],
      ["offline", "f1", 0.25, 0.25],
      ["reference", "score", 4, 0.75],
    ]);
  });
});
